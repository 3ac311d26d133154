package io.winstats.cri;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.local.LocalChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.winstats.cri.npipe.PipeBridge;
import io.winstats.cri.npipe.PipeConnector;
import io.winstats.cri.npipe.WindowsPipeConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Opens the one gRPC channel of a {@link CriStatsReader}: Netty (shaded) over a Unix socket, TCP or a Windows named
 * pipe, plain text, with keep-alive off and a 16 MiB inbound limit (the kubelet's CRI client limit). Each channel owns
 * a one-thread event loop of daemon threads that {@link Channel#close()} shuts down.
 *
 * <p>Named pipes: grpc-java and Netty have no named-pipe transport (grpc/grpc-java#12027, netty/netty#6743), so the
 * channel talks to an in-JVM Netty {@code LocalChannel} whose bytes a {@link PipeBridge} relays to a {@link
 * WindowsPipeConnection} (JNA, overlapped I/O). No network port is opened.
 */
final class CriTransport {
  /** kubelet's {@code maxMsgSize} for the CRI client. */
  static final int MAX_INBOUND_MESSAGE_BYTES = 16 * 1024 * 1024;

  static final String THREAD_PREFIX = "winstats-cri";

  private CriTransport() {}

  /** How long opening a named pipe waits while every instance of containerd's pipe is taken. */
  static final Duration PIPE_BUSY_TIMEOUT = Duration.ofSeconds(2);

  /** A channel and what it alone uses: its event loop, and for named pipes the bridge. */
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

  /** Shuts an event loop down as a {@link Channel#transport()}. */
  @SuppressWarnings("FutureReturnValueIgnored") // syncUninterruptibly() waits and rethrows a failure; it returns itself
  private static AutoCloseable shutdown(EventLoopGroup group) {
    return () -> group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
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
      case UNIX -> unix(endpoint);
      case TCP -> tcp(endpoint);
      case NPIPE -> {
        if (!windowsHost) {
          // Checked before anything could bind kernel32.
          throw new CriException(
              CriException.Reason.UNAVAILABLE,
              "endpoint=" + endpoint + ": Windows named pipes exist only on Windows; use a unix:// endpoint");
        }
        yield bridged(endpoint.uri(), WindowsPipeConnection.connector(endpoint.address(), PIPE_BUSY_TIMEOUT));
      }
    };
  }

  private static Channel unix(CriEndpoint endpoint) {
    if (!Epoll.isAvailable()) {
      throw new CriException(
          CriException.Reason.UNAVAILABLE,
          "endpoint=" + endpoint + ": Unix sockets need Netty's native epoll transport, which is unavailable here",
          Epoll.unavailabilityCause());
    }
    EventLoopGroup group = new EpollEventLoopGroup(1, new DefaultThreadFactory(THREAD_PREFIX, true));
    NettyChannelBuilder builder =
        NettyChannelBuilder.forAddress(new DomainSocketAddress(endpoint.address()))
            .eventLoopGroup(group)
            .channelType(EpollDomainSocketChannel.class)
            // grpc-java always sets SO_KEEPALIVE, which a Unix socket lacks: Netty would WARN on every (re)connect.
            .withOption(ChannelOption.SO_KEEPALIVE, null)
            // A socket path is no valid :authority; containerd ignores the authority anyway.
            .overrideAuthority("localhost");
    return new Channel(configure(builder).build(), shutdown(group));
  }

  /**
   * A channel whose connections a {@link PipeBridge} relays to connections from {@code connector}: named pipes in
   * production, a Unix socket in tests.
   */
  static Channel bridged(String target, PipeConnector connector) {
    PipeBridge bridge = PipeBridge.start(target, connector);
    try {
      NettyChannelBuilder builder =
          NettyChannelBuilder.forAddress(bridge.address())
              .eventLoopGroup(bridge.eventLoopGroup())
              .channelType(LocalChannel.class)
              // grpc-java always sets SO_KEEPALIVE, which a LocalChannel lacks: Netty would WARN on every connect.
              .withOption(ChannelOption.SO_KEEPALIVE, null)
              .overrideAuthority("localhost");
      return new Channel(configure(builder).build(), bridge);
    } catch (RuntimeException e) {
      bridge.close();
      throw e;
    }
  }

  private static Channel tcp(CriEndpoint endpoint) {
    EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory(THREAD_PREFIX, true));
    NettyChannelBuilder builder =
        NettyChannelBuilder.forAddress(endpoint.address(), endpoint.port())
            .eventLoopGroup(group)
            .channelType(NioSocketChannel.class);
    return new Channel(configure(builder).build(), shutdown(group));
  }

  private static NettyChannelBuilder configure(NettyChannelBuilder builder) {
    return builder
        .usePlaintext()
        .directExecutor()
        .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES)
        .keepAliveTime(Long.MAX_VALUE, TimeUnit.NANOSECONDS)
        .disableRetry()
        .userAgent("winstats-exporter");
  }
}
