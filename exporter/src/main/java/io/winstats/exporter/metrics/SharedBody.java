package io.winstats.exporter.metrics;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A rendered body in a direct buffer, shared by the cache that rendered it and the responses sending it, and freed the
 * moment the last of them lets go. A direct buffer is otherwise freed only when a garbage collection finds its object
 * unreachable: superseded bodies (1-4 MB each at 110 pods) stayed resident after a burst of scrapes until the next
 * collection, which an idle daemon may not run for minutes (issue 45).
 *
 * <p>The cache holds the body from its creation and {@link #release() releases} it when a newer version replaces it;
 * each response {@link #retain() retains} it before sending and releases it once the send has completed or failed.
 * Thread-safe.
 */
public final class SharedBody {
  /** {@code sun.misc.Unsafe.invokeCleaner(ByteBuffer)}, or {@code null} where the JDK refuses it (then GC frees). */
  private static final @Nullable MethodHandle INVOKE_CLEANER = invokeCleaner();

  private final ByteBuffer allocation;
  private final ByteBuffer contents;
  private final AtomicInteger holders = new AtomicInteger(1);

  /** {@code allocation} filled up to its position; the caller's hold is the first one. */
  private SharedBody(ByteBuffer allocation) {
    this.allocation = allocation;
    this.contents = allocation.duplicate().flip().asReadOnlyBuffer();
  }

  /** A body holding a copy of {@code bytes}, held once by the caller. */
  public static SharedBody of(byte[] bytes) {
    return new SharedBody(ByteBuffer.allocateDirect(bytes.length).put(bytes));
  }

  /** A body of what was written into {@code allocation} (a direct buffer of its own) up to its position. */
  static SharedBody filled(ByteBuffer allocation) {
    return new SharedBody(allocation);
  }

  /**
   * A fresh read-only view of the bytes, its position and limit the caller's own, and one more hold on them; {@code
   * null} when the body was already freed (the caller read a version that has just been replaced, and reads again).
   */
  public @Nullable ByteBuffer retain() {
    while (true) {
      int held = holders.get();
      if (held == 0) {
        return null;
      }
      if (holders.compareAndSet(held, held + 1)) {
        return contents.duplicate();
      }
    }
  }

  /** Gives back one hold; the last one frees the memory, which no view may be read after. */
  public void release() {
    int left = holders.decrementAndGet();
    if (left == 0) {
      free(allocation);
    } else if (left < 0) {
      throw new IllegalStateException("released more often than held");
    }
  }

  /** Whether the last hold was given back (the memory is freed). */
  public boolean released() {
    return holders.get() == 0;
  }

  /** Bytes of the body. */
  public int size() {
    return contents.remaining();
  }

  /**
   * Frees a direct buffer's memory now, as Undertow's and Netty's pools do; its object, and every view of it, must
   * never be read again. Where the JDK does not allow it, the buffer is left for the garbage collector.
   */
  static void free(ByteBuffer allocation) {
    MethodHandle clean = INVOKE_CLEANER;
    if (clean == null || !allocation.isDirect()) {
      return;
    }
    try {
      clean.invokeExact(allocation);
    } catch (Throwable e) {
      throw new IllegalStateException("could not free a direct buffer", e);
    }
  }

  private static @Nullable MethodHandle invokeCleaner() {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
      theUnsafe.setAccessible(true);
      MethodHandle handle =
          MethodHandles.lookup()
              .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
              .bindTo(theUnsafe.get(null));
      return handle;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
