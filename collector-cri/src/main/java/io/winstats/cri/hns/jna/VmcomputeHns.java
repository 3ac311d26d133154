package io.winstats.cri.hns.jna;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.WString;
import com.sun.jna.ptr.PointerByReference;
import com.sun.jna.win32.StdCallLibrary;
import io.winstats.cri.hns.HnsException;
import io.winstats.cri.hns.HnsPort;
import org.jspecify.annotations.Nullable;

/**
 * {@link HnsPort} over {@code vmcompute.dll}. {@code HNSCall(LPCWSTR method, LPCWSTR path, LPCWSTR request, LPWSTR
 * *response)} returns an HRESULT; the reply is a UTF-16 string the caller frees with {@code CoTaskMemFree} (hcsshim:
 * {@code __hnsCall}, internal/hns/zsyscall_windows.go:64-77@v0.13.0, and {@code ConvertAndFreeCoTaskMemString},
 * internal/interop/interop.go:14-18; windows_exporter: {@code hnsCall}, internal/headers/hcn/hcn.go:95-113@v0.31.8,
 * which also frees a reply that came with a failure). The libraries are bound on the first call, never when this class
 * loads, so a host without {@code vmcompute.dll} (no Containers feature, Linux) fails the call, not the daemon.
 */
public final class VmcomputeHns implements HnsPort {
  /** The two calls used, as the Windows SDK declares them (vmcompute.dll exports no header; hcsshim's mksyscall). */
  interface Vmcompute extends StdCallLibrary {
    int HNSCall(WString method, WString path, WString request, PointerByReference response);
  }

  interface Ole32 extends StdCallLibrary {
    void CoTaskMemFree(Pointer memory);
  }

  private record Libraries(Vmcompute vmcompute, Ole32 ole32) {}

  private volatile @Nullable Libraries libraries;

  private Libraries libraries() {
    Libraries l = libraries;
    if (l == null) {
      synchronized (this) {
        l = libraries;
        if (l == null) {
          try {
            l = new Libraries(Native.load("vmcompute", Vmcompute.class), Native.load("ole32", Ole32.class));
          } catch (UnsatisfiedLinkError e) {
            throw new HnsException("vmcompute.dll cannot be loaded (is the Containers feature installed?): " + e, e);
          }
          libraries = l;
        }
      }
    }
    return l;
  }

  @Override
  public String call(String method, String path, String request) {
    Libraries l = libraries();
    PointerByReference response = new PointerByReference();
    int hr = l.vmcompute().HNSCall(new WString(method), new WString(path), new WString(request), response);
    Pointer reply = response.getValue();
    @Nullable String text = null;
    if (reply != null) {
      try {
        text = reply.getWideString(0);
      } finally {
        l.ole32().CoTaskMemFree(reply);
      }
    }
    if (hr < 0) {
      throw new HnsException(
          "HNSCall " + method + " " + path + " failed: HRESULT 0x" + Integer.toHexString(hr)
              + (text == null ? "" : " " + text));
    }
    if (text == null) {
      throw new HnsException("HNSCall " + method + " " + path + " returned no reply");
    }
    return text;
  }
}
