/**
 * gRPC over a Windows named pipe without a network port: grpc-java and Netty have no named-pipe transport
 * (grpc/grpc-java#12027, netty/netty#6743), so {@link io.winstats.cri.npipe.PipeBridge} relays the bytes of an
 * in-JVM Netty {@code LocalChannel} to a {@link io.winstats.cri.npipe.PipeConnection}. {@link
 * io.winstats.cri.npipe.WindowsPipeConnection} and {@link io.winstats.cri.npipe.WindowsServerProcessInspector} are the
 * only classes of the module that touch JNA; tests drive the same bridge over a Unix socket. Before a byte is sent,
 * {@link io.winstats.cri.npipe.PipeServerTrust} checks who serves the pipe: a name squatted while the runtime is down
 * is refused.
 */
@NullMarked
package io.winstats.cri.npipe;

import org.jspecify.annotations.NullMarked;
