/**
 * A private containerd for integration tests, reusable by other modules through this module's test-jar.
 *
 * <p>{@link io.winstats.cri.testing.ContainerdExtension} starts one {@link io.winstats.cri.testing.ContainerdHarness}
 * per test class (containerd on a Unix socket under {@code target/}, a CNI bridge of its own, busybox images built
 * locally) and injects it and its {@link io.winstats.cri.testing.CriTestClient}, which runs real pods with a unique
 * cgroup parent each. {@link io.winstats.cri.testing.Cgroups} reads the cgroup v1 files the runtime's numbers come
 * from. Everything the harness creates (pods, processes, cgroups, the bridge, {@code ip_forward}) is removed when it
 * closes.
 *
 * <p>{@link io.winstats.cri.testing.WindowsRuntimeFake} serves Windows pods as containerd 1.6, 1.7 or 2.x fills their
 * stats ({@link io.winstats.cri.testing.ContainerdWindowsStats}), in-process or on a Unix socket, for the Windows
 * paths a Linux machine cannot run.
 */
@NullMarked
package io.winstats.cri.testing;

import org.jspecify.annotations.NullMarked;
