package io.winstats.cri;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Opens the one gRPC channel of a {@link CriStatsReader}: Netty (shaded) over a Unix socket or TCP, plain text, with
 * keep-alive off and a 16 MiB inbound limit (the kubelet's CRI client limit). Each channel owns a one-thread event
 * loop of daemon threads that {@link Channel#close()} shuts down.
 *
 * <p>This is the seam for the Windows named-pipe transport: grpc-java has none (grpc/grpc-java#12027), so {@link
 * CriEndpoint.Scheme#NPIPE} fails here with a message until a later issue adds one.
 */
final class CriTransport {
  /** kubelet's {@code maxMsgSize} for the CRI client. */
  static final int MAX_INBOUND_MESSAGE_BYTES = 16 * 1024 * 1024;

  static final String THREAD_PREFIX = "winstats-cri";

  private CriTransport() {}

  /** A channel and the event loop it alone uses. */
  record Channel(ManagedChannel channel, EventLoopGroup group) implements AutoCloseable {
    @Override
    public void close() {
      channel.shutdownNow();
      try {
        channel.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /**
   * Builds the channel; no connection is made until the first call.
   *
   * @throws CriException with {@link CriException.Reason#UNAVAILABLE} if this platform has no transport for the
   *     endpoint's scheme
   */
  static Channel open(CriEndpoint endpoint) {
    switch (endpoint.scheme()) {
      case UNIX:
        return unix(endpoint);
      case TCP:
        return tcp(endpoint);
      case NPIPE:
        throw new CriException(
            CriException.Reason.UNAVAILABLE,
            "endpoint="
                + endpoint
                + ": Windows named pipes are not supported by this build (grpc-java has no named-pipe transport);"
                + " use a unix:// or tcp:// endpoint (containerd [grpc] tcp_address)");
      default:
        throw new AssertionError(endpoint.scheme());
    }
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
    return new Channel(configure(builder).build(), group);
  }

  private static Channel tcp(CriEndpoint endpoint) {
    EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory(THREAD_PREFIX, true));
    NettyChannelBuilder builder =
        NettyChannelBuilder.forAddress(endpoint.address(), endpoint.port())
            .eventLoopGroup(group)
            .channelType(NioSocketChannel.class);
    return new Channel(configure(builder).build(), group);
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
