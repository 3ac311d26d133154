package io.winstats.cri.hns;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * HNS's replies, parsed. Every reply is an envelope {@code {"Success": bool, "Error": string, "Output": ...}}
 * (hcsshim's {@code hnsResponse}, internal/hns/hnsnetwork.go:45-49@v0.13.0, unwrapped by {@code hnsCall},
 * internal/hns/hnsfuncs.go:31-51@v0.13.0). Reading the statistics without unwrapping it gave windows_exporter 0.31.0
 * to 0.31.x zeros for every container network counter (Go ignores the unknown fields): windows_exporter#2378, fixed by
 * #2379 (internal/headers/hcn/hcn.go:64-93@v0.31.8). {@code "Success": false} carries HNS's message in {@code Error}
 * ("Element not found." for an endpoint that is gone: hcsshim's internal/hns/namespace.go:56 matches that text).
 * Every field name, of the envelope, the endpoint list and the statistics, is matched case-insensitively, as Go's
 * {@code encoding/json} in hcsshim, windows_exporter and the kubelet matches it.
 */
public final class HnsReplies {
  private static final JsonFactory JSON = new JsonFactory();

  /**
   * {@code EndpointStats}' counters, lower-cased: Go's {@code encoding/json} matches a field name to its tag
   * case-insensitively, so hcsshim, windows_exporter and the kubelet read {@code bytesReceived} as {@code
   * BytesReceived} (internal/hns/hnsendpoint.go:88-97@v0.15.0-rc.1; internal/headers/hcn/types.go:35-44@v0.31.8).
   */
  private static final List<String> STATISTICS_FIELDS =
      List.of(
          "bytesreceived",
          "bytessent",
          "packetsreceived",
          "packetssent",
          "droppedpacketsincoming",
          "droppedpacketsoutgoing");

  private HnsReplies() {}

  /**
   * The statistics in a reply to {@code GET /endpointstats/<id>}.
   *
   * @throws HnsException when HNS answered an error or the reply is not such an envelope
   */
  public static HnsEndpointStatistics endpointStatistics(String reply) {
    try (JsonParser p = JSON.createParser(reply)) {
      Object output = envelope(p, HnsReplies::statistics).output(reply);
      if (output == null) {
        // hcsshim's hnsCall would hand back a zeroed EndpointStats here; zeros would read as a counter reset.
        throw new HnsException("HNS reply has no Output: " + abbreviate(reply));
      }
      return (HnsEndpointStatistics) output;
    } catch (IOException e) {
      throw new HnsException("HNS endpoint statistics do not parse: " + e.getMessage(), e);
    }
  }

  /**
   * The endpoints in a reply to {@code GET /endpoints/}. A success without {@code Output}, or with a {@code null} one,
   * is an empty list: hcsshim's {@code hnsCall} returns no error and leaves the list empty when the reply's {@code
   * Output} is empty (internal/hns/hnsfuncs.go:40-42@v0.15.0-rc.1, under {@code HNSListEndpointRequest},
   * hnsendpoint.go:111-119), and windows_exporter's {@code ListEndpoints} returns the nil slice Go's decoder leaves
   * for a missing or null {@code Output} (internal/headers/hcn/hcn.go:41-62@v0.31.8).
   *
   * @throws HnsException when HNS answered an error or the reply is not such an envelope
   */
  @SuppressWarnings("unchecked")
  public static List<HnsEndpoint> endpoints(String reply) {
    try (JsonParser p = JSON.createParser(reply)) {
      Object output = envelope(p, HnsReplies::endpointList).output(reply);
      return output == null ? List.of() : (List<HnsEndpoint>) output;
    } catch (IOException e) {
      throw new HnsException("HNS endpoint list does not parse: " + e.getMessage(), e);
    }
  }

  /**
   * The endpoint ids in a reply to {@code GET /namespaces/<id>}: each {@code ResourceList} entry of {@code Type}
   * {@code Endpoint}, its {@code Data.Id}, as hcsshim's {@code GetNamespaceEndpoints} reads them ({@code Namespace},
   * {@code NamespaceResource} and {@code namespaceEndpointRequest}, hcsshim v0.15.0-rc.1
   * internal/hns/namespace.go:17-36,78-95; the same at v0.11.7). A success without {@code Output} or without a {@code
   * ResourceList} is a namespace without endpoints.
   *
   * @throws HnsException when HNS answered an error ("Element not found." for a namespace it does not hold) or the
   *     reply is not such an envelope
   */
  @SuppressWarnings("unchecked")
  public static List<String> namespaceEndpoints(String reply) {
    try (JsonParser p = JSON.createParser(reply)) {
      Object output = envelope(p, HnsReplies::namespaceResources).output(reply);
      return output == null ? List.of() : (List<String>) output;
    } catch (IOException e) {
      throw new HnsException("HNS namespace does not parse: " + e.getMessage(), e);
    }
  }

  private interface OutputReader {
    Object read(JsonParser p) throws IOException;
  }

  private record Envelope(@Nullable Boolean success, @Nullable String error, @Nullable Object output) {
    /** The successful reply's {@code Output}; {@code null} when it has none or a JSON {@code null}. */
    @Nullable Object output(String reply) {
      if (success == null) {
        throw new HnsException("HNS reply has no Success field: " + abbreviate(reply));
      }
      if (!success) {
        throw new HnsException("HNS answered an error: " + (error == null ? "(no Error text)" : error));
      }
      return output;
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "...";
  }

  private static Envelope envelope(JsonParser p, OutputReader reader) throws IOException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      throw new HnsException("HNS reply is not a JSON object");
    }
    Boolean success = null;
    String error = null;
    Object output = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if (name.equalsIgnoreCase("Success")) {
        success = value == JsonToken.VALUE_TRUE ? Boolean.TRUE : value == JsonToken.VALUE_FALSE ? Boolean.FALSE : null;
      } else if (name.equalsIgnoreCase("Error") && value == JsonToken.VALUE_STRING) {
        error = p.getText();
      } else if (name.equalsIgnoreCase("Output") && value != JsonToken.VALUE_NULL) {
        output = reader.read(p);
      } else {
        p.skipChildren();
      }
    }
    return new Envelope(success, error, output);
  }

  private static HnsEndpointStatistics statistics(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new HnsException("HNS endpoint statistics Output is not an object");
    }
    String id = null;
    long[] counters = new long[6];
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      p.nextToken();
      int i = STATISTICS_FIELDS.indexOf(name.toLowerCase(Locale.ROOT));
      if (i >= 0) {
        counters[i] = unsigned(p, name);
      } else if (name.equalsIgnoreCase("EndpointId") && p.currentToken() == JsonToken.VALUE_STRING) {
        id = p.getText();
      } else {
        p.skipChildren();
      }
    }
    if (id == null) {
      throw new HnsException("HNS endpoint statistics without EndpointId");
    }
    return new HnsEndpointStatistics(id, counters[0], counters[1], counters[2], counters[3], counters[4], counters[5]);
  }

  /** A JSON number holding a Go {@code uint64}: above 2^63-1 it is refused, never wrapped to a negative. */
  private static long unsigned(JsonParser p, String name) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
      throw new HnsException(name + " is not an integer: " + p.getText());
    }
    if (p.getNumberType() != JsonParser.NumberType.INT && p.getNumberType() != JsonParser.NumberType.LONG) {
      throw new HnsException(name + " exceeds 2^63-1: " + p.getText());
    }
    long v = p.getLongValue();
    if (v < 0) {
      throw new HnsException(name + " is negative: " + v);
    }
    return v;
  }

  private static List<String> namespaceResources(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new HnsException("HNS namespace Output is not an object");
    }
    List<String> endpoints = new ArrayList<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if (!name.equalsIgnoreCase("ResourceList") || value != JsonToken.START_ARRAY) {
        p.skipChildren();
        continue;
      }
      while (p.nextToken() == JsonToken.START_OBJECT) {
        String type = null;
        String id = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          JsonToken v = p.nextToken();
          if (field.equalsIgnoreCase("Type") && v == JsonToken.VALUE_STRING) {
            type = p.getText();
          } else if (field.equalsIgnoreCase("Data") && v == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String dataField = p.currentName();
              if (p.nextToken() == JsonToken.VALUE_STRING && dataField.equalsIgnoreCase("Id")) {
                id = p.getText();
              } else {
                p.skipChildren();
              }
            }
          } else {
            p.skipChildren();
          }
        }
        // hcsshim compares the type exactly (rsrc.Type == "Endpoint"); an ACL or other resource is no endpoint.
        if ("Endpoint".equals(type) && id != null) {
          endpoints.add(id);
        }
      }
    }
    return endpoints;
  }

  private static List<HnsEndpoint> endpointList(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new HnsException("HNS endpoint list Output is not an array");
    }
    List<HnsEndpoint> endpoints = new ArrayList<>();
    while (p.nextToken() == JsonToken.START_OBJECT) {
      String id = null;
      List<String> shared = new ArrayList<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (name.equalsIgnoreCase("ID") && value == JsonToken.VALUE_STRING) {
          id = p.getText();
        } else if (name.equalsIgnoreCase("SharedContainers") && value == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.VALUE_STRING) {
            shared.add(p.getText());
          }
        } else {
          p.skipChildren();
        }
      }
      if (id != null) {
        endpoints.add(new HnsEndpoint(id, shared));
      }
    }
    return endpoints;
  }
}
