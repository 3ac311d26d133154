package io.winstats.exporter.http;

import java.util.List;
import java.util.Locale;

/**
 * Whether a request's {@code Accept-Encoding} fields allow a gzip body (RFC 9110 §12.5.3): {@code gzip} (or its alias
 * {@code x-gzip}) listed with a weight above zero, or not listed and {@code *} listed with one. A weight of zero in
 * any spelling ({@code q=0}, {@code q=0.0}, {@code q=0.000}) refuses the coding; a weight that is not a qvalue
 * (RFC 9110 §12.4.2) counts as 1, as most servers read it.
 */
final class AcceptEncoding {
  private AcceptEncoding() {}

  static boolean allowsGzip(List<String> fields) {
    Double gzip = null;
    Double any = null;
    for (String field : fields) {
      for (String element : field.split(",")) {
        String[] parts = element.split(";");
        if (parts.length == 0) {
          continue; // ";" or ";;": an element without a coding, as an empty element between commas
        }
        String coding = parts[0].strip().toLowerCase(Locale.ROOT);
        double q = 1;
        for (int i = 1; i < parts.length; i++) {
          String p = parts[i].strip().toLowerCase(Locale.ROOT);
          int eq = p.indexOf('=');
          if (eq > 0 && p.substring(0, eq).strip().equals("q")) {
            q = qvalue(p.substring(eq + 1).strip());
          }
        }
        if (coding.equals("gzip") || coding.equals("x-gzip")) {
          gzip = gzip == null ? q : Math.max(gzip, q);
        } else if (coding.equals("*")) {
          any = any == null ? q : Math.max(any, q);
        }
      }
    }
    if (gzip != null) {
      return gzip > 0;
    }
    return any != null && any > 0;
  }

  /** {@code qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )}; anything else weighs 1. */
  private static double qvalue(String text) {
    if (text.matches("0(\\.\\d{0,3})?|1(\\.0{0,3})?")) {
      return Double.parseDouble(text.endsWith(".") ? text + "0" : text);
    }
    return 1;
  }
}
