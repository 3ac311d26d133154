package io.winstats.cri.hns;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.Fuzz;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HNS's JSON replies (issue 44): whatever HNS sends, each reader returns a value or throws {@link HnsException} with a
 * message, never another exception. Inputs: the golden replies bent (JSON tokens, numbers past a long and an unsigned
 * long, fields renamed by case), and any text.
 */
class HnsRepliesFuzzTest {
  private static final List<String> JSON_TOKENS =
      List.of("{", "}", "[", "]", ",", ":", "\"", "null", "true", "false", "\"Output\":", "\"Success\":",
          "\"Error\":", "\"ID\":", "\"Id\":", "\"EndpointId\":", "\"BytesReceived\":", "\"PacketsSent\":",
          "\"SharedContainers\":", "\"Resources\":", "\\u0000", "\\", "1e400", "-1", "1.5", "[]", "{}");

  @Test
  void bentRepliesGiveAValueOrAnHnsException() throws IOException {
    List<String> replies = new ArrayList<>();
    for (String name : List.of("endpoints.json", "endpointstats.json", "endpointstats-not-found.json",
        "namespace.json")) {
      replies.add(Files.readString(Path.of("src/test/resources/golden/hns", name), StandardCharsets.UTF_8));
    }
    Fuzz.forAll("HNS replies: golden replies bent",
        r -> Fuzz.mutate(r, Fuzz.oneOf(r, replies), JSON_TOKENS), HnsRepliesFuzzTest::readWithEach);
    Fuzz.forAll("HNS replies: any text", r -> Fuzz.text(r, 300), HnsRepliesFuzzTest::readWithEach);
  }

  private static void readWithEach(String reply) {
    List<Fuzz.Check<String>> readers =
        List.of(HnsReplies::endpointStatistics, HnsReplies::endpoints, HnsReplies::namespaceEndpoints);
    for (Fuzz.Check<String> reader : readers) {
      try {
        reader.accept(reply);
      } catch (HnsException e) {
        assertThat(e.getMessage()).isNotBlank();
      } catch (Exception e) {
        throw new AssertionError("not an HnsException", e);
      }
    }
  }
}
