package io.winstats.cri.hns;

/**
 * {@code HNSCall(method, path, request, &response)} of {@code vmcompute.dll}: the reply's JSON text, or a failure of
 * the call itself (the HRESULT). hcsshim declares it as {@code _hnsCall(method string, path string, object string,
 * response **uint16) (hr error) = vmcompute.HNSCall?} (internal/hns/hns.go:7@v0.13.0) and frees the reply with {@code
 * CoTaskMemFree} (internal/interop/interop.go:14-18@v0.13.0).
 */
public interface HnsPort {
  /**
   * Calls HNS.
   *
   * @return the reply, an envelope {@code {"Success":..,"Error":..,"Output":..}} ({@link HnsReplies})
   * @throws HnsException when the call itself failed (a negative HRESULT, no {@code vmcompute.dll})
   */
  String call(String method, String path, String request);
}
