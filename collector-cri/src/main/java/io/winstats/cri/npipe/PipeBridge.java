package io.winstats.cri.npipe;

import io.grpc.netty.shaded.io.netty.bootstrap.ServerBootstrap;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelInitializer;
import io.grpc.netty.shaded.io.netty.channel.DefaultEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.local.LocalAddress;
import io.grpc.netty.shaded.io.netty.channel.local.LocalChannel;
import io.grpc.netty.shaded.io.netty.channel.local.LocalServerChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a Netty gRPC client reach a server behind a {@link PipeConnection} without opening any network port: the
 * client connects a {@link LocalChannel} to {@link #address()} (an in-JVM address), and every connection it makes is
 * relayed, byte for byte, to a fresh connection from the {@link PipeConnector}. A reconnect by gRPC (after the
 * server restarted) opens a new pipe connection; if opening fails the local connection is closed, which gRPC reports
 * as {@code UNAVAILABLE} and retries on its own schedule.
 *
 * <p>Wire the client as {@code NettyChannelBuilder.forAddress(bridge.address()).channelType(LocalChannel.class)
 * .eventLoopGroup(bridge.eventLoopGroup())}. Threads: one event-loop thread shared with the client and two I/O
 * threads per live connection, all daemon threads named {@code winstats-cri-npipe*}. Thread-safe; {@link #close()}
 * ends every connection and thread.
 */
public final class PipeBridge implements AutoCloseable {
  /** Prefix of every thread the bridge starts. */
  public static final String THREAD_PREFIX = "winstats-cri-npipe";

  private static final AtomicLong NEXT_ID = new AtomicLong();

  private static final Logger LOG = LoggerFactory.getLogger(PipeBridge.class);

  private final String target;
  private final AtomicReference<@Nullable String> lastConnectFailure = new AtomicReference<>();
  private final AtomicReference<@Nullable UntrustedPipeException> refusal = new AtomicReference<>();
  private final LocalAddress address;
  private final EventLoopGroup group;
  private final ExecutorService io;
  private final Channel server;
  private final Set<PipeRelay> relays = ConcurrentHashMap.newKeySet();

  private PipeBridge(String target, PipeConnector connector) {
    this.target = target;
    this.address = new LocalAddress(THREAD_PREFIX + "-" + NEXT_ID.incrementAndGet());
    this.group = new DefaultEventLoopGroup(1, new DefaultThreadFactory(THREAD_PREFIX, true));
    this.io = Executors.newCachedThreadPool(new DefaultThreadFactory(THREAD_PREFIX + "-io", true));
    try {
      this.server =
          new ServerBootstrap()
              .group(group)
              .channel(LocalServerChannel.class)
              // The relay reads from the start and queues until the pipe is open (a client may write and close
              // before that: unread input is dropped on close); it pauses while the pipe lags behind.
              .childHandler(
                  new ChannelInitializer<LocalChannel>() {
                    @Override
                    protected void initChannel(LocalChannel ch) {
                      PipeRelay relay =
                          new PipeRelay(target, connector, io, PipeBridge.this::connected, relays::remove);
                      relays.add(relay);
                      ch.pipeline().addLast(relay);
                    }
                  })
              .bind(address)
              .syncUninterruptibly()
              .channel();
    } catch (RuntimeException e) {
      shutdownThreads();
      throw e;
    }
  }

  /**
   * Starts a bridge; connects nothing until a client does.
   *
   * @param target names the server in log lines ({@code npipe:////./pipe/containerd-containerd})
   * @param connector opens one pipe connection per client connection
   */
  public static PipeBridge start(String target, PipeConnector connector) {
    return new PipeBridge(Objects.requireNonNull(target, "target"), Objects.requireNonNull(connector, "connector"));
  }

  /** The in-JVM address clients connect to; no port, not reachable from outside this JVM. */
  public LocalAddress address() {
    return address;
  }

  /** The event loop clients must use: a {@link LocalChannel} connects only within its own kind of event loop. */
  public EventLoopGroup eventLoopGroup() {
    return group;
  }

  /** Client connections currently relayed to an open (or opening) pipe connection. */
  public int liveConnections() {
    return relays.size();
  }

  /**
   * Why the latest attempt to open the pipe failed, if it was because its server is not trusted; {@code null} after an
   * attempt that opened or failed otherwise. gRPC reports the refusal as a dropped connection ({@code UNAVAILABLE});
   * the CRI reader asks here to tell the two apart.
   */
  public @Nullable UntrustedPipeException refusal() {
    return refusal.get();
  }

  /**
   * Logs why the pipe cannot be opened once per distinct cause: gRPC reports only a dropped connection, so this line
   * is where an operator sees {@code ERROR_FILE_NOT_FOUND} (containerd not running), {@code ERROR_ACCESS_DENIED} (not
   * running as an administrator) at INFO, or at WARN a server that is not the runtime.
   */
  private void connected(@Nullable Exception failure) {
    refusal.set(failure instanceof UntrustedPipeException u ? u : null);
    if (failure == null) {
      if (lastConnectFailure.getAndSet(null) != null) {
        LOG.info("event=npipe_connected endpoint={}", target);
      }
      return;
    }
    String cause = failure.toString();
    if (!cause.equals(lastConnectFailure.getAndSet(cause))) {
      if (failure instanceof UntrustedPipeException) {
        LOG.warn("event=npipe_untrusted_server endpoint={} cause={}", target, failure.getMessage());
      } else {
        LOG.info("event=npipe_connect_failed endpoint={} cause={}", target, cause);
      }
    } else {
      LOG.debug("event=npipe_connect_failed endpoint={} cause={}", target, cause);
    }
  }

  /** Closes the listening address, every relayed connection and every thread; idempotent. */
  @Override
  @SuppressWarnings("FutureReturnValueIgnored") // syncUninterruptibly() waits and rethrows a failure; it returns itself
  public void close() {
    server.close().syncUninterruptibly();
    List.copyOf(relays).forEach(PipeRelay::close);
    shutdownThreads();
  }

  @SuppressWarnings("FutureReturnValueIgnored") // syncUninterruptibly() waits and rethrows a failure; it returns itself
  private void shutdownThreads() {
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
    io.shutdown();
    try {
      if (!io.awaitTermination(5, TimeUnit.SECONDS)) {
        io.shutdownNow();
      }
    } catch (InterruptedException e) {
      io.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
