package io.winstats.cri.hns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link HnsReplies} against the reply shapes kept in {@code golden/hns/} (sources in its README). */
class HnsRepliesTest {
  private static String golden(String name) throws IOException {
    try (InputStream in = HnsRepliesTest.class.getResourceAsStream("/golden/hns/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void endpointStatisticsAreReadFromTheEnvelopesOutput() throws IOException {
    HnsEndpointStatistics s = HnsReplies.endpointStatistics(golden("endpointstats.json"));

    assertThat(s)
        .isEqualTo(
            new HnsEndpointStatistics(
                "2C6A2B42-0D8B-4D5B-9A1E-6E1B2C3D4E5F", 33_595_751, 766_262, 28_987, 9_394, 12, 0));
  }

  /** Go's encoding/json, which hcsshim and windows_exporter decode with, matches field names case-insensitively. */
  @Test
  void statisticsFieldNamesAreMatchedCaseInsensitively() {
    String reply =
        "{\"success\":true,\"output\":{\"bytesReceived\":1,\"BYTESSENT\":2,\"packetsreceived\":3,"
            + "\"PacketsSent\":4,\"droppedPacketsIncoming\":5,\"DroppedPacketsOutgoing\":6,\"endpointId\":\"E\"}}";

    assertThat(HnsReplies.endpointStatistics(reply)).isEqualTo(new HnsEndpointStatistics("E", 1, 2, 3, 4, 5, 6));
  }

  /** windows_exporter 0.31.0-0.31.x read these fields off the envelope itself and served zeros (#2378). */
  @Test
  void statisticsOutsideAnEnvelopeAreRefusedNotReadAsZeros() {
    String bare = "{\"BytesReceived\":5,\"BytesSent\":6,\"EndpointId\":\"E\",\"PacketsReceived\":1,\"PacketsSent\":1}";

    assertThatThrownBy(() -> HnsReplies.endpointStatistics(bare))
        .isInstanceOf(HnsException.class)
        .hasMessageContaining("no Success field");
  }

  @Test
  void anErrorReplyCarriesHnsMessage() throws IOException {
    String reply = golden("endpointstats-not-found.json");

    assertThatThrownBy(() -> HnsReplies.endpointStatistics(reply))
        .isInstanceOf(HnsException.class)
        .hasMessage("HNS answered an error: Element not found.");
    assertThatThrownBy(() -> HnsReplies.endpoints(reply)).hasMessageContaining("Element not found.");
  }

  @Test
  void aNamespaceGivesTheIdsOfItsEndpointResources() throws IOException {
    assertThat(HnsReplies.namespaceEndpoints(golden("namespace.json")))
        .containsExactly("2c6a2b42-0d8b-4d5b-9a1e-6e1b2c3d4e5f");
    assertThat(HnsReplies.namespaceEndpoints("{\"success\":true,\"output\":{\"id\":\"n\",\"resourcelist\":"
        + "[{\"type\":\"Endpoint\",\"data\":{\"ID\":\"e1\"}}]}}"))
        .as("field names matched as Go's decoder matches them; the type's value exactly, as hcsshim compares it")
        .containsExactly("e1");
    assertThat(HnsReplies.namespaceEndpoints("{\"Success\":true,\"Output\":{\"ID\":\"n\",\"IsDefault\":false}}"))
        .as("no ResourceList: no endpoint")
        .isEmpty();
    assertThatThrownBy(() -> HnsReplies.namespaceEndpoints(golden("endpointstats-not-found.json")))
        .isInstanceOf(HnsException.class)
        .hasMessageContaining("Element not found.");
  }

  @Test
  void theEndpointListGivesEachEndpointsSharingContainers() throws IOException {
    assertThat(HnsReplies.endpoints(golden("endpoints.json")))
        .containsExactly(
            new HnsEndpoint(
                "2C6A2B42-0D8B-4D5B-9A1E-6E1B2C3D4E5F",
                java.util.List.of(
                    "3f0c1e9a7b2d4c6e8f1a3b5c7d9e0f2a4b6c8d0e1f3a5b7c9d1e3f5a7b9c1d3e5f",
                    "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b")),
            new HnsEndpoint("5E6F7A8B-9C0D-4E1F-A2B3-C4D5E6F7A8B9", java.util.List.of()));
  }

  /**
   * An empty endpoint list may come without {@code Output}: hcsshim's {@code hnsCall} returns no error for a reply
   * whose {@code Output} is empty (internal/hns/hnsfuncs.go:40-42@v0.15.0-rc.1) and windows_exporter's {@code
   * ListEndpoints} keeps the nil slice (internal/headers/hcn/hcn.go:41-62@v0.31.8). Which shape HNS sends is for the
   * Windows run to show (VmcomputeHnsWindowsTest).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"Success\":true}",
        "{\"Success\":true,\"Error\":\"\"}",
        "{\"Success\":true,\"Error\":\"\",\"Output\":null}",
        "{\"success\":true,\"output\":null}",
        "{\"Success\":true,\"Error\":\"\",\"Output\":[]}",
      })
  void anEndpointListWithoutOutputIsEmpty(String reply) {
    assertThat(HnsReplies.endpoints(reply)).isEmpty();
  }

  /** Statistics without {@code Output} stay an error: zeros would read as a reset of every counter of the endpoint. */
  @ParameterizedTest
  @ValueSource(strings = {"{\"Success\":true}", "{\"Success\":true,\"Error\":\"\",\"Output\":null}"})
  void endpointStatisticsWithoutOutputAreAnError(String reply) {
    assertThatThrownBy(() -> HnsReplies.endpointStatistics(reply))
        .isInstanceOf(HnsException.class)
        .hasMessageContaining("no Output");
  }

  @Test
  void aCounterBeyondALongOrNotJsonFailsClearly() {
    String huge =
        "{\"Success\":true,\"Output\":{\"BytesReceived\":18446744073709551615,\"EndpointId\":\"E\"}}";

    assertThatThrownBy(() -> HnsReplies.endpointStatistics(huge)).hasMessageContaining("exceeds 2^63-1");
    assertThatThrownBy(() -> HnsReplies.endpointStatistics("<html>")).isInstanceOf(HnsException.class);
  }
}
