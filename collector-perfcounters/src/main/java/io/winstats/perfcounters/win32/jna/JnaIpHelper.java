package io.winstats.perfcounters.win32.jna;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.win32.StdCallLibrary;
import io.winstats.perfcounters.win32.IpHelper;
import io.winstats.perfcounters.win32.Win32Exception;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The only JNA implementation of {@link IpHelper}, making the call windows_exporter v0.31.8 makes ({@code
 * adapterAddresses}, {@code internal/collector/net/net.go:519-554@v0.31.8}) with the same buffer protocol: the buffer
 * starts at the 15,000 bytes Microsoft Learn recommends, a call answering {@code ERROR_BUFFER_OVERFLOW} with a larger
 * size is made again with that size, one answering it with a size no larger is a failure, and a success that sets the
 * size to 0 is no adapter. The buffer is kept between calls (upstream makes a new one each scrape).
 *
 * <p>Not thread-safe: use one instance from one thread.
 */
public final class JnaIpHelper implements IpHelper {
  static final int INITIAL_BUFFER = 15_000;
  /** The most bytes of a socket address read: a {@code SOCKADDR_IN6}, the larger of the two upstream decodes. */
  static final int SOCKADDR_IN6_SIZE = 28;

  /** The iphlpapi function we call. Public for JNA's proxy. */
  public interface IpHlpApiNative extends StdCallLibrary {
    int GetAdaptersAddresses(
        int family, int flags, @Nullable Pointer reserved, Pointer adapterAddresses, IntByReference sizePointer);
  }

  private final Supplier<IpHlpApiNative> loader;
  private @Nullable IpHlpApiNative iphlpapi;
  private Memory buffer;

  /** Binds to the real {@code iphlpapi.dll}, loaded lazily on first use. */
  public JnaIpHelper() {
    this(() -> Native.load("iphlpapi", IpHlpApiNative.class), INITIAL_BUFFER);
  }

  /** For tests: the given implementation of the native interface and a first buffer of that size. */
  JnaIpHelper(Supplier<IpHlpApiNative> loader, int initialBuffer) {
    this.loader = loader;
    this.buffer = new Memory(initialBuffer);
  }

  private IpHlpApiNative iphlpapi() {
    IpHlpApiNative i = iphlpapi;
    if (i == null) {
      i = loader.get();
      iphlpapi = i;
    }
    return i;
  }

  @Override
  public List<AdapterAddresses> getAdaptersAddresses(int family, int flags) {
    IntByReference size = new IntByReference();
    while (true) {
      buffer.clear();
      long given = buffer.size();
      size.setValue(Math.toIntExact(given));
      int error = iphlpapi().GetAdaptersAddresses(family, flags, null, buffer, size);
      if (error == 0) {
        return size.getValue() == 0 ? List.of() : adapters(buffer);
      }
      if (error != Win32Exception.ERROR_BUFFER_OVERFLOW || Integer.toUnsignedLong(size.getValue()) <= given) {
        throw new Win32Exception("GetAdaptersAddresses", error);
      }
      buffer.close();
      buffer = new Memory(Integer.toUnsignedLong(size.getValue()));
    }
  }

  /** The {@code Next}-linked adapters from the start of {@code buffer}. */
  static List<AdapterAddresses> adapters(Pointer buffer) {
    List<AdapterAddresses> adapters = new ArrayList<>();
    for (Pointer p = buffer; p != null; ) {
      IpAdapterAddressesLh a = new IpAdapterAddressesLh(p);
      List<SocketAddress> unicast = new ArrayList<>();
      for (Pointer u = a.FirstUnicastAddress; u != null; ) {
        IpAdapterAddressesLh.Unicast entry = new IpAdapterAddressesLh.Unicast(u);
        unicast.add(socketAddress(entry.Address));
        u = entry.Next;
      }
      List<SocketAddress> anycast = new ArrayList<>();
      for (Pointer u = a.FirstAnycastAddress; u != null; ) {
        IpAdapterAddressesLh.Anycast entry = new IpAdapterAddressesLh.Anycast(u);
        anycast.add(socketAddress(entry.Address));
        u = entry.Next;
      }
      adapters.add(
          new AdapterAddresses(
              JnaServiceControlManager.utf16(a.Description),
              JnaServiceControlManager.utf16(a.FriendlyName),
              a.PhysicalAddress,
              a.PhysicalAddressLength,
              a.OperStatus,
              unicast,
              anycast));
      p = a.Next;
    }
    return adapters;
  }

  /** The first {@code iSockaddrLength} bytes at {@code lpSockaddr}, at most a {@code SOCKADDR_IN6}'s. */
  private static SocketAddress socketAddress(IpAdapterAddressesLh.SocketAddress s) {
    Pointer sockaddr = s.lpSockaddr;
    int length = Math.min(Math.max(s.iSockaddrLength, 0), SOCKADDR_IN6_SIZE);
    return new SocketAddress(sockaddr == null ? new byte[0] : sockaddr.getByteArray(0, length));
  }
}
