package io.winstats.perfcounters.win32.jna;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import io.winstats.perfcounters.win32.FakeIpHelper;
import io.winstats.perfcounters.win32.IpHelper.AdapterAddresses;
import io.winstats.perfcounters.win32.IpHelper.SocketAddress;
import io.winstats.perfcounters.win32.Win32Exception;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * {@link JnaIpHelper} on any 64-bit host: a Java implementation of its native interface stands in for iphlpapi.dll and
 * lays out its answer in the helper's native buffer as {@code GetAdaptersAddresses} does, at the x64 offsets of
 * iptypes.h's structures (written here by offset, independently of the Structure classes): the {@code Next}-linked
 * {@code IP_ADAPTER_ADDRESSES_LH}s (448 bytes each) first, then their {@code IP_ADAPTER_UNICAST_ADDRESS_LH} (64) and
 * {@code IP_ADAPTER_ANYCAST_ADDRESS_XP} (32) lists, the {@code SOCKADDR}s those point to and the UTF-16LE strings. So
 * the buffer protocol (net.go:519-554@v0.31.8), its growth, the list walks and the decoding run through real JNA
 * memory.
 */
@EnabledIf("pointersAre64Bit")
class JnaIpHelperTest {
  static boolean pointersAre64Bit() {
    return Native.POINTER_SIZE == 8;
  }

  /** A scripted iphlpapi.dll answering {@link #adapters}. */
  static final class ScriptedIpHlpApi implements JnaIpHelper.IpHlpApiNative {
    final List<AdapterAddresses> adapters = new ArrayList<>();
    final List<Integer> sizes = new ArrayList<>();
    int error;
    /** The size an {@code ERROR_BUFFER_OVERFLOW} answers; by default the size needed. */
    @Nullable Integer overflowSize;
    boolean answerZeroSize;

    @Override
    public int GetAdaptersAddresses(
        int family, int flags, @Nullable Pointer reserved, Pointer buffer, IntByReference size) {
      assertThat(family).as("AF_UNSPEC").isZero();
      assertThat(flags).as("GAA_FLAG_SKIP_MULTICAST | GAA_FLAG_SKIP_DNS_SERVER").isEqualTo(0x4 | 0x8);
      assertThat(reserved).isNull();
      sizes.add(size.getValue());
      if (error != 0) {
        return error;
      }
      int needed = layOut(null);
      if (size.getValue() < needed) {
        size.setValue(overflowSize == null ? needed : overflowSize);
        return Win32Exception.ERROR_BUFFER_OVERFLOW;
      }
      layOut(buffer);
      if (answerZeroSize) {
        size.setValue(0);
      }
      return 0;
    }

    /** Writes the answer at {@code buffer} (when given) and returns its size. */
    int layOut(@Nullable Pointer buffer) {
      long base = buffer == null ? 0 : Pointer.nativeValue(buffer);
      int listsAt = 448 * adapters.size();
      int at = listsAt;
      for (AdapterAddresses a : adapters) {
        at += 64 * a.unicast().size() + 32 * a.anycast().size();
      }
      int dataAt = at;
      int listAt = listsAt;
      for (int i = 0; i < adapters.size(); i++) {
        AdapterAddresses a = adapters.get(i);
        long adapter = 448L * i;
        if (buffer != null) {
          buffer.setInt(adapter, 448); // Length
          buffer.setInt(adapter + 4, i + 3); // IfIndex
          buffer.setLong(adapter + 8, i + 1 < adapters.size() ? base + 448L * (i + 1) : 0); // Next
          buffer.setLong(adapter + 24, a.unicast().isEmpty() ? 0 : base + listAt); // FirstUnicastAddress
          buffer.setLong(adapter + 32, a.anycast().isEmpty() ? 0 : base + listAt + 64L * a.unicast().size());
          buffer.write(adapter + 80, a.physicalAddress(), 0, 8); // PhysicalAddress
          buffer.setInt(adapter + 88, a.physicalAddressLength());
          buffer.setInt(adapter + 96, 1500); // Mtu
          buffer.setInt(adapter + 100, 6); // IfType: IF_TYPE_ETHERNET_CSMACD
          buffer.setInt(adapter + 104, a.operStatus());
          buffer.setLong(adapter + 184, 10_000_000_000L); // TransmitLinkSpeed
          buffer.setLong(adapter + 192, 10_000_000_000L); // ReceiveLinkSpeed
        }
        for (int kind = 0; kind < 2; kind++) {
          List<SocketAddress> list = kind == 0 ? a.unicast() : a.anycast();
          int entrySize = kind == 0 ? 64 : 32;
          for (int j = 0; j < list.size(); j++) {
            byte[] sockaddr = list.get(j).sockaddr();
            if (buffer != null) {
              buffer.setInt(listAt, entrySize); // Length
              buffer.setLong(listAt + 8, j + 1 < list.size() ? base + listAt + entrySize : 0); // Next
              buffer.setLong(listAt + 16, base + dataAt); // Address.lpSockaddr
              buffer.setInt(listAt + 24, sockaddr.length); // Address.iSockaddrLength
              if (kind == 0) {
                buffer.setInt(listAt + 40, 4); // DadState: IpDadStatePreferred
                buffer.setByte(listAt + 56, (byte) (sockaddr.length == 16 ? 24 : 64)); // OnLinkPrefixLength
              }
              buffer.write(dataAt, sockaddr, 0, sockaddr.length);
            }
            listAt += entrySize;
            dataAt += (sockaddr.length + 7) & ~7;
          }
        }
        for (int field : new int[] {64, 72}) { // Description, FriendlyName
          byte[] s = ((field == 64 ? a.description() : a.friendlyName()) + "\0").getBytes(StandardCharsets.UTF_16LE);
          if (buffer != null) {
            buffer.setLong(adapter + field, base + dataAt);
            buffer.write(dataAt, s, 0, s.length);
          }
          dataAt += (s.length + 7) & ~7;
        }
      }
      return dataAt;
    }
  }

  @Test
  void theLinkedAdaptersWithTheirAddressListsAreReadAsLaidOut() {
    ScriptedIpHlpApi api = new ScriptedIpHlpApi();
    api.adapters.addAll(FakeIpHelper.kubernetesNode().getAdaptersAddresses(0, 0xC));
    JnaIpHelper helper = new JnaIpHelper(() -> api, JnaIpHelper.INITIAL_BUFFER);

    List<AdapterAddresses> read = helper.getAdaptersAddresses(0, 0xC);

    assertThat(read).isEqualTo(api.adapters).hasSize(5);
    assertThat(read.get(1).unicast()).hasSize(4);
    assertThat(read.get(1).anycast()).hasSize(1);
    assertThat(api.sizes).as("a first buffer of 15,000 bytes holds them").containsExactly(15_000);
  }

  @Test
  void theBufferGrowsToTheSizeAnOverflowAnswersAndIsKept() {
    ScriptedIpHlpApi api = new ScriptedIpHlpApi();
    api.adapters.addAll(FakeIpHelper.kubernetesNode().getAdaptersAddresses(0, 0xC));
    JnaIpHelper helper = new JnaIpHelper(() -> api, 512);
    int needed = api.layOut(null);

    assertThat(helper.getAdaptersAddresses(0, 0xC)).isEqualTo(api.adapters);
    assertThat(helper.getAdaptersAddresses(0, 0xC)).isEqualTo(api.adapters);

    assertThat(api.sizes).containsExactly(512, needed, needed);
  }

  @Test
  void anOverflowThatAsksForNoMoreFailsAsUpstreamDoes() {
    ScriptedIpHlpApi api = new ScriptedIpHlpApi();
    api.adapters.addAll(FakeIpHelper.kubernetesNode().getAdaptersAddresses(0, 0xC));
    api.overflowSize = 512;
    JnaIpHelper helper = new JnaIpHelper(() -> api, 512);

    assertThatThrownBy(() -> helper.getAdaptersAddresses(0, 0xC))
        .isInstanceOfSatisfying(
            Win32Exception.class, e -> assertThat(e.errorCode()).isEqualTo(Win32Exception.ERROR_BUFFER_OVERFLOW))
        .hasMessage("GetAdaptersAddresses failed: ERROR_BUFFER_OVERFLOW");
    assertThat(api.sizes).containsExactly(512);
  }

  @Test
  void anyOtherCodeIsAFailureNamingIt() {
    ScriptedIpHlpApi api = new ScriptedIpHlpApi();
    api.error = 232; // ERROR_NO_DATA: no adapter; upstream fails on it too (net.go:538-540)
    JnaIpHelper helper = new JnaIpHelper(() -> api, JnaIpHelper.INITIAL_BUFFER);

    assertThatThrownBy(() -> helper.getAdaptersAddresses(0, 0xC)).hasMessage("GetAdaptersAddresses failed: error 232");
  }

  @Test
  void aSuccessThatSetsTheSizeToZeroIsNoAdapter() {
    ScriptedIpHlpApi api = new ScriptedIpHlpApi();
    api.adapters.addAll(FakeIpHelper.kubernetesNode().getAdaptersAddresses(0, 0xC));
    api.answerZeroSize = true;
    JnaIpHelper helper = new JnaIpHelper(() -> api, JnaIpHelper.INITIAL_BUFFER);

    assertThat(helper.getAdaptersAddresses(0, 0xC)).isEmpty();
  }

  @Test
  void aSocketAddressLongerThanASockaddrIn6IsReadTo28Bytes() {
    byte[] storage = new byte[128]; // a SOCKADDR_STORAGE-sized answer
    System.arraycopy(FakeIpHelper.ipv6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 9, 0).sockaddr(), 0, storage, 0, 28);
    ScriptedIpHlpApi api = new ScriptedIpHlpApi();
    api.adapters.add(
        new AdapterAddresses("a", "b", new byte[8], 0, 1, List.of(new SocketAddress(storage)), List.of()));
    JnaIpHelper helper = new JnaIpHelper(() -> api, JnaIpHelper.INITIAL_BUFFER);

    SocketAddress read = helper.getAdaptersAddresses(0, 0xC).get(0).unicast().get(0);

    assertThat(read.sockaddr()).hasSize(28).isEqualTo(java.util.Arrays.copyOf(storage, 28));
  }
}
