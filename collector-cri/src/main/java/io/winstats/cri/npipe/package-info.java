/**
 * gRPC over a Windows named pipe without a network port: grpc-java and Netty have no named-pipe transport
 * (grpc/grpc-java#12027, netty/netty#6743), so {@link io.winstats.cri.npipe.PipeBridge} relays the bytes of an
 * in-JVM Netty {@code LocalChannel} to a {@link io.winstats.cri.npipe.PipeConnection}. {@link
 * io.winstats.cri.npipe.WindowsPipeConnection} is the only class of the module that touches JNA; tests drive the same
 * bridge over a Unix socket.
 */
@NullMarked
package io.winstats.cri.npipe;

import org.jspecify.annotations.NullMarked;
