package io.winstats.cri.rounds;

import io.grpc.ManagedChannel;
import io.grpc.okhttp.OkHttpChannelBuilder;
import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.npipe.WindowsPipeConnection;
import io.winstats.cri.transport.Connector;
import io.winstats.cri.transport.ConnectorSocketFactory;
import io.winstats.cri.transport.UnixSocketConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens the one gRPC channel of a {@link CriStatsReader}: grpc-java's OkHttp transport over a Unix socket, TCP or a
 * Windows named pipe, plain text, with keep-alive off and a 16 MiB inbound limit (the kubelet's CRI client limit).
 *
 * <p>Unix sockets and named pipes: OkHttp speaks to {@link java.net.Socket}s, so a {@link ConnectorSocketFactory}
 * hands it a socket over the JDK's own Unix-domain {@code SocketChannel} ({@link UnixSocketConnection}) or over a
 * {@link WindowsPipeConnection} (JNA, overlapped I/O); the channel's host and port are a placeholder that is never
 * dialled. Both platforms take the same path, so a named pipe differs from a Unix socket only in its {@link
 * Connector}. No network port is opened and no native library of gRPC's is loaded (the Netty transport this replaced
 * needed its epoll library, and on Windows an in-JVM relay between Netty and the pipe).
 *
 * <p>Threads, all daemon threads named {@code winstats-cri-*} and owned by the channel: a cached pool for OkHttp's
 * connection work (one thread reads each live connection; connecting borrows two briefly) and one timer for call
 * deadlines. {@link Channel#close()} ends them.
 */
final class CriTransport {
  /** kubelet's {@code maxMsgSize} for the CRI client. */
  static final int MAX_INBOUND_MESSAGE_BYTES = 16 * 1024 * 1024;

  /**
   * HTTP/2 flow-control window per stream and connection: Netty's default, so a 110-pod answer (~0.5 MB) arrives
   * without waiting on window updates; OkHttp's own default is 64 KiB.
   */
  static final int FLOW_CONTROL_WINDOW_BYTES = 1024 * 1024;

  static final String THREAD_PREFIX = "winstats-cri";

  /** How long opening a named pipe waits while every instance of containerd's pipe is taken. */
  static final Duration PIPE_BUSY_TIMEOUT = Duration.ofSeconds(2);

  /** The placeholder host the channel resolves (an IP literal: no name lookup); the socket factory ignores it. */
  private static final String PLACEHOLDER_HOST = "127.0.0.1";

  private static final int PLACEHOLDER_PORT = 1;

  private CriTransport() {}

  /** A channel and what it alone uses: its threads. */
  record Channel(ManagedChannel channel, AutoCloseable transport) implements AutoCloseable {
    @Override
    public void close() {
      channel.shutdownNow();
      try {
        channel.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      try {
        transport.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing the CRI transport failed", e);
      }
    }
  }

  /**
   * Builds the channel; no connection is made until the first call.
   *
   * @param windowsHost whether this host is Windows, as the caller answers it; named pipes exist only there
   * @throws CriException with {@link CriException.Reason#UNAVAILABLE} if this platform has no transport for the
   *     endpoint's scheme
   */
  static Channel open(CriEndpoint endpoint, boolean windowsHost) {
    return switch (endpoint.scheme()) {
      case UNIX -> {
        Path socket = Path.of(endpoint.address());
        yield over(endpoint.uri(), () -> UnixSocketConnection.open(socket));
      }
      case TCP -> build(OkHttpChannelBuilder.forAddress(endpoint.address(), endpoint.port()));
      case NPIPE -> {
        if (!windowsHost) {
          // Checked before anything could bind kernel32.
          throw new CriException(
              CriException.Reason.UNAVAILABLE,
              "endpoint=" + endpoint + ": Windows named pipes exist only on Windows; use a unix:// endpoint");
        }
        yield over(endpoint.uri(), WindowsPipeConnection.connector(endpoint.address(), PIPE_BUSY_TIMEOUT));
      }
    };
  }

  /**
   * A channel whose every connection is one {@link Connector#open()}: Unix sockets and named pipes in production, any
   * stream in tests.
   *
   * @param target names the endpoint in addresses and log lines
   */
  static Channel over(String target, Connector connector) {
    OkHttpChannelBuilder builder =
        OkHttpChannelBuilder.forAddress(PLACEHOLDER_HOST, PLACEHOLDER_PORT)
            .socketFactory(new ConnectorSocketFactory(connector, target))
            // The placeholder is no proxy's business (the JDK's selector would be asked for it otherwise).
            .proxyDetector(address -> null)
            // A socket path is no valid :authority; containerd ignores the authority anyway.
            .overrideAuthority("localhost");
    return build(builder);
  }

  private static Channel build(OkHttpChannelBuilder builder) {
    ExecutorService connections = Executors.newCachedThreadPool(daemonThreads(THREAD_PREFIX + "-"));
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(daemonThreads(THREAD_PREFIX + "-timer-"));
    AutoCloseable threads =
        () -> {
          connections.shutdownNow();
          timer.shutdownNow();
          connections.awaitTermination(5, TimeUnit.SECONDS);
        };
    try {
      ManagedChannel channel =
          builder
              .usePlaintext()
              .transportExecutor(connections)
              .offloadExecutor(connections)
              .scheduledExecutorService(timer)
              .directExecutor()
              .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES)
              .flowControlWindow(FLOW_CONTROL_WINDOW_BYTES)
              .keepAliveTime(Long.MAX_VALUE, TimeUnit.NANOSECONDS)
              .disableRetry()
              .userAgent("winstats-exporter")
              .build();
      return new Channel(channel, threads);
    } catch (RuntimeException e) {
      connections.shutdownNow();
      timer.shutdownNow();
      throw e;
    }
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger next = new AtomicInteger();
    return task -> {
      Thread t = new Thread(task, prefix + next.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
