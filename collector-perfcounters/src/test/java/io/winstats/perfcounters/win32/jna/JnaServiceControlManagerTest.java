package io.winstats.perfcounters.win32.jna;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import io.winstats.perfcounters.win32.ServiceControlManager.EnumServiceStatusProcess;
import io.winstats.perfcounters.win32.ServiceControlManager.QueryServiceConfig;
import io.winstats.perfcounters.win32.ServiceControlManager.ServiceStatusProcess;
import io.winstats.perfcounters.win32.Win32Exception;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * {@link JnaServiceControlManager} on any 64-bit host: Java implementations of its native interfaces stand in for
 * advapi32.dll and kernel32.dll and write their answers into the manager's native buffers as the SCM does, at the x64
 * offsets of winsvc.h's structures (written here by offset, independently of the Structure classes): the items or the
 * configuration at the start of the buffer, the UTF-16LE strings they point to after it. So the buffer protocol
 * (service.go:379-430,460-501@v0.31.8), its growth and the decoding run through real JNA memory.
 */
@EnabledIf("pointersAre64Bit")
class JnaServiceControlManagerTest {
  static boolean pointersAre64Bit() {
    return Native.POINTER_SIZE == 8;
  }

  private static final Pointer SCM = new Pointer(0x5C00);
  private static final Pointer SERVICE = new Pointer(0x5E00);
  private static final Pointer PROCESS = new Pointer(0x9900);

  record Service(String name, String display, int[] status, String path, String account, List<String> dependencies) {}

  int lastError;

  /** A scripted advapi32.dll. */
  class ScriptedAdvapi32 implements JnaServiceControlManager.Advapi32Native {
    final List<Service> services = new ArrayList<>();
    final List<Integer> enumSizes = new ArrayList<>();
    final List<Integer> configSizes = new ArrayList<>();
    final List<String> opened = new ArrayList<>();
    int closedHandles;
    int openScmCalls;
    boolean invalidFirstName;

    @Override
    public @Nullable Pointer OpenSCManagerW(@Nullable String machine, @Nullable String database, int access) {
      openScmCalls++;
      assertThat(machine).isNull();
      assertThat(access).isEqualTo(JnaServiceControlManager.SC_MANAGER_ENUMERATE_SERVICE);
      return SCM;
    }

    @Override
    public boolean EnumServicesStatusExW(
        Pointer scm,
        int infoLevel,
        int type,
        int state,
        Pointer buffer,
        int size,
        IntByReference needed,
        IntByReference returned,
        @Nullable IntByReference resume,
        @Nullable String group) {
      assertThat(scm).isEqualTo(SCM);
      assertThat(infoLevel).as("SC_ENUM_PROCESS_INFO").isZero();
      assertThat(type).as("SERVICE_WIN32").isEqualTo(0x30);
      assertThat(state).as("SERVICE_STATE_ALL").isEqualTo(3);
      enumSizes.add(size);
      int total = 56 * services.size();
      for (Service s : services) {
        total += 2 * (s.name().length() + 1) + 2 * (s.display().length() + 1);
      }
      if (size < total) {
        // service.go:413-420@v0.31.8: the bytes needed beyond the buffer given
        needed.setValue(total - size);
        returned.setValue(0);
        lastError = Win32Exception.ERROR_MORE_DATA;
        return false;
      }
      long strings = 56L * services.size();
      for (int i = 0; i < services.size(); i++) {
        Service s = services.get(i);
        long item = 56L * i;
        if (i == 0 && invalidFirstName) {
          buffer.setPointer(item, new Pointer(-1L));
        } else {
          buffer.setPointer(item, buffer.share(strings));
        }
        strings = writeString(buffer, strings, s.name());
        buffer.setPointer(item + 8, buffer.share(strings));
        strings = writeString(buffer, strings, s.display());
        for (int f = 0; f < 9; f++) {
          buffer.setInt(item + 16 + 4L * f, s.status()[f]);
        }
      }
      returned.setValue(services.size());
      return true;
    }

    @Override
    public @Nullable Pointer OpenServiceW(Pointer scm, String name, int access) {
      assertThat(access).as("SERVICE_QUERY_CONFIG").isEqualTo(1);
      if (services.stream().noneMatch(s -> s.name().equals(name))) {
        lastError = 1060; // ERROR_SERVICE_DOES_NOT_EXIST
        return null;
      }
      opened.add(name);
      return SERVICE;
    }

    @Override
    public boolean QueryServiceConfigW(Pointer service, Pointer buffer, int size, IntByReference needed) {
      configSizes.add(size);
      Service s =
          services.stream().filter(x -> x.name().equals(opened.get(opened.size() - 1))).findFirst().orElseThrow();
      int deps = 2;
      for (String d : s.dependencies()) {
        deps += 2 * (d.length() + 1);
      }
      int total = 64 + 2 * (s.path().length() + 1) + 2 + deps + 2 * (s.account().length() + 1)
          + 2 * (s.display().length() + 1);
      if (size < total) {
        needed.setValue(total);
        lastError = Win32Exception.ERROR_INSUFFICIENT_BUFFER;
        return false;
      }
      buffer.setInt(0, s.status()[0]);
      buffer.setInt(4, 2); // SERVICE_AUTO_START
      buffer.setInt(8, 1); // SERVICE_ERROR_NORMAL
      long at = 64;
      buffer.setPointer(16, buffer.share(at));
      at = writeString(buffer, at, s.path());
      buffer.setPointer(24, buffer.share(at));
      at = writeString(buffer, at, "");
      buffer.setInt(32, 0);
      buffer.setPointer(40, buffer.share(at));
      for (String d : s.dependencies()) {
        at = writeString(buffer, at, d);
      }
      buffer.setShort(at, (short) 0);
      at += 2;
      buffer.setPointer(48, buffer.share(at));
      at = writeString(buffer, at, s.account());
      buffer.setPointer(56, buffer.share(at));
      writeString(buffer, at, s.display());
      return true;
    }

    @Override
    public boolean CloseServiceHandle(Pointer handle) {
      closedHandles++;
      return true;
    }
  }

  /** A scripted kernel32.dll: one process, created at a fixed FILETIME. */
  final class ScriptedKernel32 implements JnaServiceControlManager.Kernel32Native {
    int closedHandles;

    @Override
    public @Nullable Pointer OpenProcess(int access, boolean inherit, int pid) {
      assertThat(access).as("PROCESS_QUERY_LIMITED_INFORMATION").isEqualTo(0x1000);
      if (pid != 2816) {
        lastError = Win32Exception.ERROR_INVALID_PARAMETER;
        return null;
      }
      return PROCESS;
    }

    @Override
    public boolean GetProcessTimes(
        Pointer process, LongByReference creation, LongByReference exit, LongByReference kernel,
        LongByReference user) {
      creation.setValue(134_091_636_450_000_000L);
      return true;
    }

    @Override
    public boolean CloseHandle(Pointer handle) {
      closedHandles++;
      return true;
    }
  }

  private static long writeString(Pointer buffer, long at, String s) {
    byte[] bytes = (s + "\0").getBytes(StandardCharsets.UTF_16LE);
    buffer.write(at, bytes, 0, bytes.length);
    return at + bytes.length;
  }

  private static int[] status(int state, int pid) {
    return new int[] {0x10, state, 5, 0, 0, 0, 0, pid, 0};
  }

  private final ScriptedAdvapi32 advapi32 = new ScriptedAdvapi32();
  private final ScriptedKernel32 kernel32 = new ScriptedKernel32();

  private JnaServiceControlManager manager(int initialBuffer) {
    return new JnaServiceControlManager(() -> advapi32, () -> kernel32, () -> lastError, initialBuffer);
  }

  @Test
  void enumerationGrowsTheBufferByTheBytesNeededBeyondItAndDecodesEveryItem() {
    advapi32.services.add(new Service("containerd", "containerd", status(4, 2816), "C:\\c.exe", "LocalSystem",
        List.of()));
    advapi32.services.add(new Service("hns", "Host Network Service", status(4, 1532), "svchost.exe", "LocalSystem",
        List.of("RpcSs", "nsi")));
    advapi32.services.add(new Service("Spooler", "Druckwarteschlange ü", status(1, 0), "spoolsv.exe", "LocalSystem",
        List.of()));
    JnaServiceControlManager m = manager(64);

    List<EnumServiceStatusProcess> services = m.enumServicesStatusEx();

    assertThat(services)
        .containsExactly(
            new EnumServiceStatusProcess(
                "containerd", "containerd", new ServiceStatusProcess(0x10, 4, 5, 0, 0, 0, 0, 2816, 0)),
            new EnumServiceStatusProcess(
                "hns", "Host Network Service", new ServiceStatusProcess(0x10, 4, 5, 0, 0, 0, 0, 1532, 0)),
            new EnumServiceStatusProcess(
                "Spooler", "Druckwarteschlange ü", new ServiceStatusProcess(0x10, 1, 5, 0, 0, 0, 0, 0, 0)));
    int total = 3 * 56 + 2 * (11 + 11 + 4 + 21 + 8 + 21);
    assertThat(advapi32.enumSizes).containsExactly(64, total);

    m.enumServicesStatusEx();
    assertThat(advapi32.enumSizes).as("the grown buffer is kept").containsExactly(64, total, total);
    assertThat(advapi32.openScmCalls).isEqualTo(1);
    m.close();
    m.close();
    assertThat(advapi32.closedHandles).isEqualTo(1);
  }

  @Test
  void anItemWithAnInvalidNamePointerIsLeftOut() {
    advapi32.services.add(new Service("bad", "bad", status(4, 1), "", "", List.of()));
    advapi32.services.add(new Service("kubelet", "kubelet", status(4, 3012), "", "", List.of()));
    advapi32.invalidFirstName = true;

    assertThat(manager(4096).enumServicesStatusEx()).extracting(EnumServiceStatusProcess::serviceName)
        .containsExactly("kubelet");
  }

  @Test
  void aFailedEnumerationNamesTheCallAndTheError() {
    JnaServiceControlManager m =
        new JnaServiceControlManager(
            () -> new ScriptedAdvapi32() {
              @Override
              public boolean EnumServicesStatusExW(
                  Pointer scm, int infoLevel, int type, int state, Pointer buffer, int size, IntByReference needed,
                  IntByReference returned, @Nullable IntByReference resume, @Nullable String group) {
                lastError = Win32Exception.ERROR_ACCESS_DENIED;
                return false;
              }
            },
            () -> kernel32,
            () -> lastError,
            4096);

    assertThatThrownBy(m::enumServicesStatusEx)
        .isInstanceOf(Win32Exception.class)
        .hasMessage("EnumServicesStatusExW failed: ERROR_ACCESS_DENIED");
  }

  @Test
  void configurationGrowsToTheSizeAskedAndClosesTheServiceHandle() {
    String path = "\"C:\\Program Files\\containerd\\bin\\containerd.exe\" --run-service --log-level info".repeat(20);
    advapi32.services.add(new Service("containerd", "containerd", status(4, 2816), path, "LocalSystem",
        List.of("hns", "vmcompute")));
    JnaServiceControlManager m = manager(4096);

    QueryServiceConfig config = m.queryServiceConfig("containerd");

    assertThat(config)
        .isEqualTo(
            new QueryServiceConfig(0x10, 2, 1, path, "", 0, List.of("hns", "vmcompute"), "LocalSystem", "containerd"));
    assertThat(advapi32.configSizes).hasSize(2).first().isEqualTo(1024);
    assertThat(advapi32.configSizes.get(1)).isGreaterThan(2 * path.length());
    assertThat(advapi32.closedHandles).isEqualTo(1);
    assertThatThrownBy(() -> m.queryServiceConfig("absent"))
        .isInstanceOf(Win32Exception.class)
        .hasMessage("OpenServiceW failed: error 1060");
  }

  @Test
  void processCreationTimeIsGetProcessTimesFirstFileTime() {
    JnaServiceControlManager m = manager(4096);

    assertThat(m.processCreationFileTime(2816)).isEqualTo(134_091_636_450_000_000L);
    assertThat(kernel32.closedHandles).isEqualTo(1);
    assertThatThrownBy(() -> m.processCreationFileTime(7))
        .isInstanceOf(Win32Exception.class)
        .extracting(e -> ((Win32Exception) e).errorCode())
        .isEqualTo(Win32Exception.ERROR_INVALID_PARAMETER);
  }
}
