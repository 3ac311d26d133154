package io.winstats.cri.npipe;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.WString;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.win32.StdCallLibrary;
import io.winstats.cri.transport.Connection;
import io.winstats.cri.transport.Connector;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * A client connection to a Windows named pipe ({@code \\.\pipe\containerd-containerd}) through kernel32, opened only
 * to a server that {@link PipeServerTrust} accepts.
 *
 * <p>The handle is opened with {@code FILE_FLAG_OVERLAPPED}: on a synchronous handle Windows serialises all I/O, so a
 * blocked {@code ReadFile} would stall every {@code WriteFile} and deadlock HTTP/2. Each direction has its own
 * {@code OVERLAPPED}, manual-reset event and native buffer, so one read and one write proceed at the same time. The
 * calling thread waits in {@code GetOverlappedResult}; {@link #close()} wakes it with {@code CancelIoEx}.
 *
 * <p>kernel32 is bound on first {@link #open}; loading or initialising this class loads no native code, so it is
 * safe to reference on Linux. Thread-safety as {@link Connection} states.
 */
public final class WindowsPipeConnection implements Connection {
  static final int GENERIC_READ = 0x8000_0000;
  static final int GENERIC_WRITE = 0x4000_0000;
  static final int OPEN_EXISTING = 3;
  static final int FILE_FLAG_OVERLAPPED = 0x4000_0000;
  /** With {@code SECURITY_ANONYMOUS} (0): the server may not impersonate us, as go-winio's dialer does. */
  static final int SECURITY_SQOS_PRESENT = 0x0010_0000;
  static final int SECURITY_ANONYMOUS = 0;

  /** Bytes moved per ReadFile/WriteFile call. */
  static final int BUFFER_BYTES = 64 * 1024;

  private final String path;
  private final Pointer handle;
  private final Direction reading;
  private final Direction writing;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * A connector for gRPC's (re)connects: each {@link Connector#open()} is one {@link #open(String, Duration,
   * PipeServerTrust)}.
   *
   * @param path the Win32 pipe path, {@code \\.\pipe\NAME}
   * @param busyTimeout how long to wait for a free pipe instance when the server's are all taken
   */
  public static Connector connector(String path, Duration busyTimeout) {
    return connector(path, busyTimeout, PipeServerTrust.systemOrAdministrators(WindowsServerProcessInspector.INSTANCE));
  }

  /** As {@link #connector(String, Duration)}, accepting the servers {@code trust} accepts. */
  public static Connector connector(String path, Duration busyTimeout, PipeServerTrust trust) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(busyTimeout, "busyTimeout");
    Objects.requireNonNull(trust, "trust");
    return () -> open(path, busyTimeout, trust);
  }

  /**
   * Connects to the pipe. While every instance is taken ({@code ERROR_PIPE_BUSY}) it waits with {@code
   * WaitNamedPipeW} and retries until {@code busyTimeout}; any other error fails at once (a pipe that does not exist
   * gives {@code ERROR_FILE_NOT_FOUND}: the server is not running).
   *
   * <p>Once open, the server is checked before a byte is sent: {@code GetNamedPipeServerProcessId}, then {@code
   * trust}. An untrusted server's handle is closed at once.
   *
   * @throws UntrustedPipeException if {@code trust} refuses the server
   * @throws IOException naming the call and the Win32 error by name
   */
  public static WindowsPipeConnection open(String path, Duration busyTimeout, PipeServerTrust trust)
      throws IOException {
    Kernel32Pipes k = kernel().k();
    WString name = new WString(path);
    long deadline = System.nanoTime() + busyTimeout.toNanos();
    while (true) {
      Pointer h =
          k.CreateFileW(
              name,
              GENERIC_READ | GENERIC_WRITE,
              0,
              null,
              OPEN_EXISTING,
              FILE_FLAG_OVERLAPPED | SECURITY_SQOS_PRESENT | SECURITY_ANONYMOUS,
              null);
      if (h != null && isValid(h)) {
        verifyServer(k, path, h, trust);
        return adopt(path, h);
      }
      int error = Native.getLastError();
      if (!Win32Error.ERROR_PIPE_BUSY.is(error)) {
        throw failure("CreateFileW", path, error);
      }
      long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (leftMillis <= 0) {
        throw new IOException(
            "CreateFileW " + path + ": " + Win32Error.describe(error) + " for longer than " + busyTimeout);
      }
      // Returns when an instance is free, or at once if the pipe is gone; CreateFileW may still lose the race.
      if (!k.WaitNamedPipeW(name, (int) Math.min(leftMillis, 1_000))) {
        int waitError = Native.getLastError();
        if (!Win32Error.ERROR_SEM_TIMEOUT.is(waitError)) {
          throw failure("WaitNamedPipeW", path, waitError);
        }
      }
    }
  }

  /** Closes {@code handle} unless {@code trust} accepts the process serving it. */
  private static void verifyServer(Kernel32Pipes k, String path, Pointer handle, PipeServerTrust trust)
      throws IOException {
    try {
      trust.verify(path, serverProcessId(k, path, handle));
    } catch (IOException | RuntimeException e) {
      k.CloseHandle(handle);
      throw e;
    }
  }

  /** The pid of the process that created this instance of the pipe (Vista/Server 2008 and later). */
  static long serverProcessId(Kernel32Pipes k, String path, Pointer handle) throws IOException {
    IntByReference pid = new IntByReference();
    if (!k.GetNamedPipeServerProcessId(handle, pid)) {
      throw failure("GetNamedPipeServerProcessId", path, Native.getLastError());
    }
    return Integer.toUnsignedLong(pid.getValue());
  }

  /** Takes ownership of an open overlapped pipe handle (a client's, or a server's in tests). */
  static WindowsPipeConnection adopt(String path, Pointer handle) throws IOException {
    Direction reading = null;
    try {
      reading = new Direction(path);
      Direction writing = new Direction(path);
      return new WindowsPipeConnection(path, handle, reading, writing);
    } catch (IOException | RuntimeException e) {
      if (reading != null) {
        reading.free();
      }
      kernel().k().CloseHandle(handle);
      throw e;
    }
  }

  private WindowsPipeConnection(String path, Pointer handle, Direction reading, Direction writing) {
    this.path = path;
    this.handle = handle;
    this.reading = reading;
    this.writing = writing;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!dst.hasRemaining()) {
      return 0;
    }
    synchronized (reading) {
      int n = transfer(reading, true, Math.min(dst.remaining(), BUFFER_BYTES));
      // go-winio: a successful zero-byte read into a non-empty buffer is the end of the stream.
      if (n <= 0) {
        return -1;
      }
      dst.put(reading.buffer.getByteBuffer(0, n));
      return n;
    }
  }

  @Override
  public void write(ByteBuffer src) throws IOException {
    synchronized (writing) {
      while (src.hasRemaining()) {
        int chunk = Math.min(src.remaining(), BUFFER_BYTES);
        ByteBuffer slice = src.slice();
        slice.limit(chunk);
        writing.buffer.getByteBuffer(0, chunk).put(slice);
        int n = transfer(writing, false, chunk);
        if (n <= 0) {
          throw new IOException("WriteFile " + path + ": wrote nothing");
        }
        src.position(src.position() + n);
      }
    }
  }

  /** Named pipes have no half-close; the peer sees the end of the stream when {@link #close()} closes the handle. */
  @Override
  public void shutdownOutput() {}

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    Kernel32Pipes k = kernel().k();
    // Cancels this process's pending read and write on the handle; ERROR_NOT_FOUND when none is pending.
    k.CancelIoEx(handle, null);
    // The OVERLAPPEDs and buffers must outlive the cancelled operations: wait until both directions are idle.
    synchronized (reading) {
      synchronized (writing) {
        k.CloseHandle(handle);
        reading.free();
        writing.free();
      }
    }
  }

  /**
   * Starts one overlapped ReadFile or WriteFile and waits for it.
   *
   * @return bytes transferred, or -1 for a read that met the end of the stream
   */
  private int transfer(Direction d, boolean read, int count) throws IOException {
    if (closed.get()) {
      throw new ClosedChannelException();
    }
    Native32 n = kernel();
    Kernel32Pipes k = n.k();
    d.overlapped.clear();
    d.overlapped.setPointer(n.hEventOffset(), d.event);
    boolean done =
        read
            ? k.ReadFile(handle, d.buffer, count, null, d.overlapped)
            : k.WriteFile(handle, d.buffer, count, null, d.overlapped);
    if (!done) {
      int error = Native.getLastError();
      if (!Win32Error.ERROR_IO_PENDING.is(error)) {
        return failed(read ? "ReadFile" : "WriteFile", read, error);
      }
    }
    // close() may have run CancelIoEx before this operation started; cancel it ourselves so nobody waits forever.
    if (closed.get()) {
      k.CancelIoEx(handle, d.overlapped);
    }
    IntByReference transferred = d.transferred;
    if (!k.GetOverlappedResult(handle, d.overlapped, transferred, true)) {
      int error = Native.getLastError();
      // Message-mode pipes: the rest of the message follows on the next read.
      if (read && Win32Error.ERROR_MORE_DATA.is(error)) {
        return transferred.getValue();
      }
      return failed("GetOverlappedResult(" + (read ? "ReadFile" : "WriteFile") + ")", read, error);
    }
    return transferred.getValue();
  }

  private int failed(String call, boolean read, int error) throws IOException {
    if (read && Win32Error.isEndOfStream(error)) {
      return -1;
    }
    if (closed.get() && Win32Error.ERROR_OPERATION_ABORTED.is(error)) {
      throw new AsynchronousCloseException();
    }
    throw failure(call, path, error);
  }

  private static IOException failure(String call, String path, int error) {
    return new IOException(call + " " + path + ": " + Win32Error.describe(error));
  }

  private static boolean isValid(@Nullable Pointer handle) {
    return handle != null && Pointer.nativeValue(handle) != -1L;
  }

  @Override
  public String toString() {
    return "npipe " + path;
  }

  /** One direction's OVERLAPPED, event and buffer, all native and reused for every operation. */
  private static final class Direction {
    final Pointer event;
    final Memory overlapped = new Memory(kernel().overlappedSize());
    final Memory buffer = new Memory(BUFFER_BYTES);
    final IntByReference transferred = new IntByReference();

    Direction(String path) throws IOException {
      Pointer e = kernel().k().CreateEventW(null, true, false, null);
      if (e == null) {
        int error = Native.getLastError();
        overlapped.close();
        buffer.close();
        throw failure("CreateEventW", path, error);
      }
      this.event = e;
    }

    void free() {
      kernel().k().CloseHandle(event);
      overlapped.close();
      buffer.close();
    }
  }

  /**
   * The Win32 {@code OVERLAPPED} layout: 32 bytes on x64 with {@code hEvent} at 24. Used for its size and offsets
   * only; the operations pass raw memory, because JNA would copy a {@code Structure} to and from native memory around
   * every call, overwriting fields the kernel owns while the I/O is pending.
   */
  @Structure.FieldOrder({"Internal", "InternalHigh", "Offset", "OffsetHigh", "hEvent"})
  public static final class Overlapped extends Structure {
    /** ULONG_PTR: the status of the request. */
    public @Nullable Pointer Internal;
    /** ULONG_PTR: bytes transferred. */
    public @Nullable Pointer InternalHigh;
    /** DWORD: ignored for pipes (union with {@code Pointer}). */
    public int Offset;
    /** DWORD: ignored for pipes. */
    public int OffsetHigh;
    /** HANDLE: the manual-reset event signalled on completion. */
    public @Nullable Pointer hEvent;

    int offsetOf(String field) {
      return fieldOffset(field);
    }
  }

  /** The kernel32 functions used here, by their exact (wide) names; BOOL maps to Java {@code boolean}. */
  interface Kernel32Pipes extends StdCallLibrary {
    @Nullable
    Pointer CreateFileW(
        WString name,
        int desiredAccess,
        int shareMode,
        @Nullable Pointer securityAttributes,
        int creationDisposition,
        int flagsAndAttributes,
        @Nullable Pointer templateFile);

    boolean WaitNamedPipeW(WString name, int timeoutMillis);

    @Nullable
    Pointer CreateEventW(
        @Nullable Pointer securityAttributes, boolean manualReset, boolean initialState, @Nullable WString name);

    boolean ReadFile(Pointer file, Pointer buffer, int toRead, @Nullable Pointer read, Pointer overlapped);

    boolean WriteFile(Pointer file, Pointer buffer, int toWrite, @Nullable Pointer written, Pointer overlapped);

    boolean GetOverlappedResult(Pointer file, Pointer overlapped, IntByReference transferred, boolean wait);

    boolean CancelIoEx(Pointer file, @Nullable Pointer overlapped);

    /** {@code ULONG} out: a DWORD-sized pid. */
    boolean GetNamedPipeServerProcessId(Pointer pipe, IntByReference serverProcessId);

    boolean CloseHandle(Pointer handle);
  }

  /** Whether kernel32 has been bound in this JVM (never on Linux). */
  static boolean kernelBound() {
    return native32 != null;
  }

  /** kernel32 and the OVERLAPPED layout, bound on first use. */
  record Native32(Kernel32Pipes k, int overlappedSize, int hEventOffset) {}

  private static volatile @Nullable Native32 native32;

  /**
   * Binds kernel32 on first use, not in a static initializer: nothing native loads until a pipe is opened, so this
   * class can be loaded (and its pure parts tested) on Linux.
   */
  static Native32 kernel() {
    Native32 n = native32;
    if (n == null) {
      synchronized (WindowsPipeConnection.class) {
        n = native32;
        if (n == null) {
          Overlapped layout = new Overlapped();
          n = new Native32(
              Native.load("kernel32", Kernel32Pipes.class), layout.size(), layout.offsetOf("hEvent"));
          native32 = n;
        }
      }
    }
    return n;
  }
}
