package io.winstats.cri.npipe;

import io.grpc.netty.shaded.io.netty.buffer.ByteBuf;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelFuture;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pumps bytes between one Netty channel (the gRPC client's {@code LocalChannel} peer) and one {@link PipeConnection},
 * in both directions at once. The channel must start with auto-read off: the relay turns it on once the connection is
 * open, and off again while more than {@link #HIGH_WATER_BYTES} wait for the pipe.
 *
 * <p>Blocking pipe I/O runs on two threads of the {@code io} executor (one reader, one writer), never on the event
 * loop. End of stream from the pipe closes the channel after the bytes before it; the channel closing drains what it
 * sent, half-closes the connection, then closes it. A failed open or I/O error closes both sides, which gRPC sees as
 * a dropped connection ({@code UNAVAILABLE}). Not sharable: one instance per channel.
 */
final class PipeRelay extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(PipeRelay.class);
  static final int READ_BUFFER_BYTES = 64 * 1024;
  static final long HIGH_WATER_BYTES = 1024 * 1024;
  static final long LOW_WATER_BYTES = 256 * 1024;
  /** In the write queue: the channel closed, half-close the pipe after what came before. */
  private static final Object END = new Object();

  private final String target;
  private final PipeConnector connector;
  private final Executor io;
  private final Consumer<@Nullable Exception> onConnect;
  private final Consumer<PipeRelay> onClosed;
  private final BlockingQueue<Object> toPipe = new LinkedBlockingQueue<>();
  private final AtomicLong queuedBytes = new AtomicLong();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile @Nullable Channel channel;
  private volatile @Nullable PipeConnection connection;

  /**
   * @param onConnect told the outcome of opening the pipe: {@code null} when it opened, else why not
   * @param onClosed told once when the relay has closed both sides
   */
  PipeRelay(
      String target,
      PipeConnector connector,
      Executor io,
      Consumer<@Nullable Exception> onConnect,
      Consumer<PipeRelay> onClosed) {
    this.target = Objects.requireNonNull(target, "target");
    this.connector = Objects.requireNonNull(connector, "connector");
    this.io = Objects.requireNonNull(io, "io");
    this.onConnect = Objects.requireNonNull(onConnect, "onConnect");
    this.onClosed = Objects.requireNonNull(onClosed, "onClosed");
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    submit(this::connect);
    ctx.fireChannelActive();
  }

  /** Opens the pipe off the event loop: opening may wait for a busy pipe. */
  private void connect() {
    PipeConnection c;
    try {
      c = connector.open();
    } catch (IOException | RuntimeException e) {
      onConnect.accept(e);
      close();
      return;
    }
    onConnect.accept(null);
    connection = c;
    if (closed.get()) {
      c.close();
      return;
    }
    submit(this::pumpToPipe);
    submit(this::pumpFromPipe);
  }

  private void submit(Runnable task) {
    try {
      io.execute(task);
    } catch (RejectedExecutionException e) {
      close(); // the bridge is closing
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf buf) || closed.get()) {
      ReferenceCountUtil.release(msg);
      return;
    }
    long queued = queuedBytes.addAndGet(buf.readableBytes());
    toPipe.add(buf);
    if (closed.get()) {
      drain();
    } else if (queued > HIGH_WATER_BYTES) {
      ctx.channel().config().setAutoRead(false);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    // Whatever the client wrote before closing still goes to the pipe: the writer closes the relay after END, also
    // when the pipe opens only after the client has gone.
    toPipe.add(END);
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("event=npipe_channel_failed endpoint={} cause={}", target, cause.toString());
    close();
  }

  private void pumpToPipe() {
    PipeConnection c = Objects.requireNonNull(connection);
    try {
      while (!closed.get()) {
        Object next = toPipe.take();
        if (next == END) {
          if (!closed.get()) {
            c.shutdownOutput();
          }
          break;
        }
        ByteBuf buf = (ByteBuf) next;
        int bytes = buf.readableBytes();
        try {
          if (!closed.get()) {
            c.write(buf.nioBuffer());
          }
        } finally {
          buf.release();
        }
        Channel ch = channel;
        if (queuedBytes.addAndGet(-bytes) < LOW_WATER_BYTES && ch != null && !ch.config().isAutoRead()) {
          ch.config().setAutoRead(true);
        }
      }
    } catch (IOException e) {
      if (!closed.get()) {
        LOG.debug("event=npipe_write_failed endpoint={} cause={}", target, e.toString());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      close();
    }
  }

  @SuppressWarnings("FutureReturnValueIgnored") // awaited only for back-pressure; a failed write closes the channel
  private void pumpFromPipe() {
    PipeConnection c = Objects.requireNonNull(connection);
    Channel ch = Objects.requireNonNull(channel);
    ByteBuffer buffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    boolean pipeDone = false;
    try {
      while (!closed.get() && ch.isActive()) {
        buffer.clear();
        int n = c.read(buffer);
        if (n < 0) {
          pipeDone = true;
          break;
        }
        buffer.flip();
        ByteBuf out = ch.alloc().buffer(n);
        out.writeBytes(buffer);
        ChannelFuture written = ch.writeAndFlush(out);
        if (!ch.isWritable()) {
          written.awaitUninterruptibly();
        }
      }
    } catch (IOException e) {
      pipeDone = true;
      if (!closed.get()) {
        LOG.debug("event=npipe_read_failed endpoint={} cause={}", target, e.toString());
      }
    } finally {
      // The pipe ended or failed: close (queued on the event loop behind the writes above, so they reach gRPC first).
      // The client went away instead: the writer closes the relay once it has written what the client sent.
      if (pipeDone || ch.isActive()) {
        close();
      }
    }
  }

  /** Closes the channel and the connection; idempotent, from any thread. */
  @SuppressWarnings("FutureReturnValueIgnored") // nothing to do if closing the channel fails; the pipe closes anyway
  void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    Channel ch = channel;
    if (ch != null) {
      ch.close();
    }
    PipeConnection c = connection;
    if (c != null) {
      c.close();
    }
    drain();
    toPipe.add(END); // wakes the writer
    onClosed.accept(this);
  }

  /** Releases queued buffers; keeps an {@code END}, which the writer may still be waiting for. */
  private void drain() {
    boolean end = false;
    for (Object o; (o = toPipe.poll()) != null; ) {
      if (o == END) {
        end = true;
      } else {
        ReferenceCountUtil.release(o);
      }
    }
    if (end) {
      toPipe.add(END);
    }
  }

  @Override
  public String toString() {
    return "relay " + target + " " + channel;
  }
}
