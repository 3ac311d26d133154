package io.winstats.testing.fences.a;

import com.sun.jna.Pointer;

/** Crosses the JNA fence: a class outside the native packages that touches a JNA type. */
public final class JnaOutsideItsPackages {
  public static long address(Pointer pointer) {
    return Pointer.nativeValue(pointer);
  }
}
