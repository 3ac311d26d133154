package io.winstats.exporter.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@code only_cpu_and_memory} as the kubelet's {@code handleSummary} does (kubernetes {@code
 * pkg/kubelet/server/stats/handler.go}): Go's {@code Request.ParseForm} merges a urlencoded POST body (first) with the
 * URL query, and the form is CPU and memory only when the parameter has exactly one value and that value is {@code
 * true}. Any other value, {@code 1} and {@code TRUE} included, asks for the full summary; none is refused.
 */
final class SummaryForm {
  static final String PARAMETER = "only_cpu_and_memory";
  static final String URLENCODED = "application/x-www-form-urlencoded";

  private SummaryForm() {}

  /**
   * @param queryValues the parameter's values in the URL query, as the server decoded them
   * @param urlencodedBody the request body when it is {@code application/x-www-form-urlencoded}, else {@code null}
   * @throws IllegalArgumentException if the body is not valid urlencoded text (the kubelet answers 500 then)
   */
  static boolean onlyCpuAndMemory(Collection<String> queryValues, @Nullable String urlencodedBody) {
    List<String> values = new ArrayList<>();
    if (urlencodedBody != null) {
      for (String pair : urlencodedBody.split("[&]", -1)) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        if (key.equals(PARAMETER)) {
          values.add(eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    values.addAll(queryValues);
    return values.size() == 1 && values.get(0).equals("true");
  }

  /** Whether a {@code Content-Type} names a urlencoded form, parameters such as a charset aside. */
  static boolean isUrlencoded(@Nullable String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
    return type.equalsIgnoreCase(URLENCODED);
  }
}
