package io.winstats.perfcounters.pdh;

import com.sun.jna.Pointer;

/**
 * For {@code FencesTest}: a class of the PDH source's own package that touches a JNA type, which only its {@code
 * pdh.jna} sub-package may.
 */
public final class JnaBesideThePort {
  private JnaBesideThePort() {}

  public static long address(Pointer pointer) {
    return Pointer.nativeValue(pointer);
  }
}
