/**
 * The byte streams gRPC's OkHttp transport runs over: a {@link io.winstats.cri.transport.Connection} (a Unix socket,
 * or on Windows a named pipe from {@code cri.npipe}) wrapped as a {@link java.net.Socket} by {@link
 * io.winstats.cri.transport.ConnectionSocket} and handed out by {@link
 * io.winstats.cri.transport.ConnectorSocketFactory}. Linux and Windows share this path, so the real-containerd tests on
 * Linux exercise the socket adapter the named pipe uses. No gRPC, no native code of its own.
 */
@NullMarked
package io.winstats.cri.transport;

import org.jspecify.annotations.NullMarked;
