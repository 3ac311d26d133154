package io.winstats.cri.testing;

import io.winstats.testing.CiPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts one {@link ContainerdHarness} per test class and injects it, or its {@link CriTestClient}, into test
 * methods, constructors and lifecycle methods.
 *
 * <pre>{@code
 * @Tag("containerd")
 * @ExtendWith(ContainerdExtension.class)
 * class MyIT {
 *   @Test
 *   void reads(ContainerdHarness harness, CriTestClient client) {
 *     try (PodHandle pod = client.runPod("web", "default", List.of(ContainerSpec.sleeper("app")))) { ... }
 *   }
 * }
 * }</pre>
 *
 * <p>The work directory is {@code target/ctrd-<6 hex>} (short, for the socket path). The harness closes after the
 * class's last test, also when tests fail: registered {@link ContainerdHarness#defer deferred} cleanups first, in
 * reverse order, then pods, containerd, cgroups, the bridge.
 *
 * <p>If the host cannot run containerd ({@link ContainerdAvailable}), or containerd fails to start, the class's tests
 * are <b>skipped</b> with the reason, unless this is CI ({@link CiPolicy}): then they <b>fail</b>, so that CI cannot
 * pass by silently skipping.
 */
public final class ContainerdExtension implements ExecutionCondition, BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(ContainerdExtension.class);
  private static final String KEY = "harness";

  /** Closes the harness when JUnit closes the class's store. */
  @SuppressWarnings("deprecation") // CloseableResource for JUnit before 5.13, AutoCloseable from 5.13 on
  private record Resource(ContainerdHarness harness)
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    @Override
    public void close() {
      harness.close();
    }
  }

  /** Disables (reports as skipped, with the reason) when the host cannot run containerd, unless CI. */
  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    return CiPolicy.condition(context, new ContainerdAvailable().unmetReason());
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    if (store.get(KEY) != null) {
      return;
    }
    var unavailable = new ContainerdAvailable().unmetReason();
    if (unavailable.isPresent()) {
      CiPolicy.skipOrFail(context, unavailable.get(), null);
      return;
    }
    ContainerdHarness harness;
    try {
      harness = ContainerdHarness.start(workDir());
    } catch (RuntimeException e) {
      CiPolicy.skipOrFail(context, "containerd harness failed to start: " + e.getMessage(), e);
      return;
    }
    store.put(KEY, new Resource(harness));
  }

  private static Path workDir() {
    byte[] bytes = new byte[3];
    new SecureRandom().nextBytes(bytes);
    Path dir = Path.of("target", "ctrd-" + HexFormat.of().formatHex(bytes)).toAbsolutePath();
    if (dir.resolve("c.sock.ttrpc").toString().getBytes(StandardCharsets.UTF_8).length > 100) {
      dir = Path.of("/tmp", dir.getFileName().toString());
    }
    return dir;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == ContainerdHarness.class || type == CriTestClient.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Resource resource = findResource(context);
    if (resource == null) {
      throw new ParameterResolutionException("no containerd harness: was ContainerdExtension's beforeAll skipped?");
    }
    Class<?> type = parameter.getParameter().getType();
    return type == ContainerdHarness.class ? resource.harness() : resource.harness().client();
  }

  private static @Nullable Resource findResource(ExtensionContext context) {
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      Resource r = c.getStore(NAMESPACE).get(KEY, Resource.class);
      if (r != null) {
        return r;
      }
    }
    return null;
  }
}
