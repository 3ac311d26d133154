/**
 * The Windows named-pipe end of the CRI transport: {@link io.winstats.cri.npipe.WindowsPipeConnection} opens {@code
 * \\.\pipe\containerd-containerd} through kernel32 (JNA, overlapped I/O) as a {@link
 * io.winstats.cri.transport.Connection}, which gRPC's OkHttp transport reads and writes through a {@code
 * transport.ConnectionSocket}, exactly as it does a Unix socket on Linux. Before a byte is sent, {@link
 * io.winstats.cri.npipe.PipeServerTrust} checks who serves the pipe: a name squatted while the runtime is down is
 * refused. {@link io.winstats.cri.npipe.WindowsPipeConnection} and {@link
 * io.winstats.cri.npipe.WindowsServerProcessInspector} are the only classes of the module that touch JNA.
 */
@NullMarked
package io.winstats.cri.npipe;

import org.jspecify.annotations.NullMarked;
