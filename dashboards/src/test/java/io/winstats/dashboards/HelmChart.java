package io.winstats.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The chart under {@code deploy/helm/winstats-exporter}, rendered and linted by the real Helm engine (helm.sh/helm/v3
 * 3.21.0 linked into helm-java's native library, called through JNA): what {@code helm template} and {@code helm lint}
 * do, with no helm binary.
 */
final class HelmChart {
  static final Path DIR = Path.of("..", "deploy", "helm", "winstats-exporter").toAbsolutePath().normalize();
  static final Path PRESET = DIR.resolve("presets").resolve("kube-prometheus-stack.yaml");
  static final Path CI = DIR.resolve("ci");
  static final String RELEASE = "winstats-exporter";
  static final String NAMESPACE = "winstats";
  /** Kinds the chart may create that have no namespace. */
  static final java.util.Set<String> CLUSTER_SCOPED = java.util.Set.of("PriorityClass", "ClusterRole", "ClusterRoleBinding");
  /** The API version the objects are checked against: kubernetes-client/java 24 follows Kubernetes 1.32. */
  static final String KUBE_VERSION = "1.32.0";

  private HelmChart() {}

  /** {@code helm template RELEASE DIR -n NAMESPACE --kube-version KUBE_VERSION -f ...}: the rendered YAML stream. */
  static String template(List<Path> valuesFiles) {
    return template(DIR, valuesFiles);
  }

  /** The same, of the chart in {@code chart} (another checkout's copy). */
  static String template(Path chart, List<Path> valuesFiles) {
    TemplateCommand t =
        new Helm(chart).template().withName(RELEASE).withNamespace(NAMESPACE).withKubeVersion(KUBE_VERSION);
    for (Path f : valuesFiles) {
      t = t.withValuesFile(f);
    }
    return t.call();
  }

  /**
   * {@code helm template RELEASE DIR -n namespace --set k=v ... -f ...}: {@code --set} values as Helm parses them
   * (dotted keys, typed scalars), over the files.
   */
  static String template(String namespace, List<Path> valuesFiles, Map<String, String> sets) {
    TemplateCommand t =
        new Helm(DIR).template().withName(RELEASE).withNamespace(namespace).withKubeVersion(KUBE_VERSION);
    for (Path f : valuesFiles) {
      t = t.withValuesFile(f);
    }
    for (Map.Entry<String, String> e : sets.entrySet()) {
      t = t.set(e.getKey(), e.getValue());
    }
    return t.call();
  }

  /**
   * {@code helm install --dry-run} without a cluster (helm-java's client-only dry run): the rendered manifests and
   * NOTES.txt, as {@code helm install} prints them.
   */
  static String installDryRun(String release, Path chart, String namespace, List<Path> valuesFiles, Map<String, String> sets) {
    com.marcnuri.helm.InstallCommand i =
        new Helm(chart).install().withName(release).withNamespace(namespace).withKubeVersion(KUBE_VERSION)
            .dryRun().clientOnly();
    for (Path f : valuesFiles) {
      i = i.withValuesFile(f);
    }
    for (Map.Entry<String, String> e : sets.entrySet()) {
      i = i.set(e.getKey(), e.getValue());
    }
    return i.call().getOutput();
  }

  /**
   * The chart's helm test pods (templates/tests/) as {@code helm template} would print them with {@code valuesFiles}.
   * Helm keeps hooks out of a release's manifest, the only thing helm-java returns, so the chart is copied into
   * {@code work} with the {@code helm.sh/hook} annotation lines of templates/tests/ taken out, which renders those
   * objects as plain ones; the annotations are checked on the template's own text.
   */
  static List<JsonNode> testObjects(List<Path> valuesFiles, Path work) {
    try {
      Tools.deleteRecursively(work);
      copyFollowingLinks(DIR, work);
      try (Stream<Path> s = Files.list(work.resolve("templates").resolve("tests"))) {
        for (Path f : s.toList()) {
          String hooksOut = Files.readString(f).replaceAll("(?m)^[ ]*helm\\.sh/hook[-a-z]*:.*\\n", "");
          Files.writeString(f, hooksOut.replaceAll("(?m)^  annotations:\\n(?=spec:)", ""));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<JsonNode> all = parse(template(work, valuesFiles));
    List<JsonNode> manifest = parse(template(valuesFiles));
    return all.stream().filter(d -> !manifest.contains(d)).toList();
  }

  /** The rendered objects of {@link #template}, in order. */
  static List<JsonNode> objects(List<Path> valuesFiles) {
    return parse(template(valuesFiles));
  }

  static List<JsonNode> parse(String yaml) {
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = Rules.YAML.readerFor(JsonNode.class).readValues(yaml)) {
      while (it.hasNext()) {
        JsonNode doc = it.next();
        if (doc != null && !doc.isEmpty()) {
          docs.add(doc);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return docs;
  }

  /**
   * {@code helm lint --strict} of the chart with {@code valuesFiles} over its defaults. helm-java's lint reads only the
   * chart's own values.yaml, so the chart is copied into {@code work} (symbolic links followed, as Helm's loader
   * does) with the defaults and the files merged into that copy's values.yaml the way Helm merges them: maps key by
   * key, anything else replaced.
   */
  static LintResult lint(List<Path> valuesFiles, Path work) {
    if (valuesFiles.isEmpty()) {
      return new Helm(DIR).lint().strict().call();
    }
    try {
      Tools.deleteRecursively(work);
      copyFollowingLinks(DIR, work);
      ObjectNode values = (ObjectNode) Rules.YAML.readTree(DIR.resolve("values.yaml").toFile());
      for (Path f : valuesFiles) {
        merge(values, Rules.YAML.readTree(f.toFile()));
      }
      Rules.YAML.writeValue(work.resolve("values.yaml").toFile(), values);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Helm(work).lint().strict().call();
  }

  static void merge(ObjectNode into, JsonNode over) {
    Iterator<Map.Entry<String, JsonNode>> it = over.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode existing = into.get(e.getKey());
      if (existing instanceof ObjectNode o && e.getValue().isObject()) {
        merge(o, e.getValue());
      } else {
        into.set(e.getKey(), e.getValue());
      }
    }
  }

  private static void copyFollowingLinks(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from, java.nio.file.FileVisitOption.FOLLOW_LINKS)) {
      for (Path p : s.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  static String kindOf(JsonNode doc) {
    return doc.path("apiVersion").asText() + " " + doc.path("kind").asText();
  }

  static List<JsonNode> ofKind(List<JsonNode> docs, String kind) {
    return docs.stream().filter(d -> d.path("kind").asText().equals(kind)).toList();
  }
}
