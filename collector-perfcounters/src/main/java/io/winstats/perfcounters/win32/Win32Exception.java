package io.winstats.perfcounters.win32;

import java.util.Locale;

/**
 * A Win32 call that failed, with the function's name and the {@code GetLastError} or returned code (winerror.h).
 *
 * <p>Unchecked, like the other sources' failures: a reader turns it into a missing part or a skipped item.
 */
public final class Win32Exception extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** {@code ERROR_INVALID_FUNCTION}. */
  public static final int ERROR_INVALID_FUNCTION = 1;
  /** {@code ERROR_FILE_NOT_FOUND}. */
  public static final int ERROR_FILE_NOT_FOUND = 2;
  /** {@code ERROR_PATH_NOT_FOUND}. */
  public static final int ERROR_PATH_NOT_FOUND = 3;
  /** {@code ERROR_ACCESS_DENIED}. */
  public static final int ERROR_ACCESS_DENIED = 5;
  /** {@code ERROR_NO_MORE_FILES}. */
  public static final int ERROR_NO_MORE_FILES = 18;
  /** {@code ERROR_NOT_READY}: a drive without media. */
  public static final int ERROR_NOT_READY = 21;
  /** {@code ERROR_INVALID_PARAMETER}. */
  public static final int ERROR_INVALID_PARAMETER = 87;
  /** {@code ERROR_BUFFER_OVERFLOW}. */
  public static final int ERROR_BUFFER_OVERFLOW = 111;
  /** {@code ERROR_INSUFFICIENT_BUFFER}. */
  public static final int ERROR_INSUFFICIENT_BUFFER = 122;
  /** {@code ERROR_MORE_DATA}. */
  public static final int ERROR_MORE_DATA = 234;
  /** {@code ERROR_UNSUPPORTED_TYPE}: a registry value of another type than asked for. */
  public static final int ERROR_UNSUPPORTED_TYPE = 1630;
  /** {@code ERROR_MUI_FILE_NOT_FOUND}. */
  public static final int ERROR_MUI_FILE_NOT_FOUND = 15100;

  private final String call;
  private final int errorCode;

  public Win32Exception(String call, int errorCode) {
    super(call + " failed: " + name(errorCode));
    this.call = call;
    this.errorCode = errorCode;
  }

  /** The Win32 function that failed. */
  public String call() {
    return call;
  }

  /** The {@code GetLastError} code. */
  public int errorCode() {
    return errorCode;
  }

  /** The winerror.h name of the codes this code handles, else the code in decimal. */
  static String name(int code) {
    return switch (code) {
      case ERROR_INVALID_FUNCTION -> "ERROR_INVALID_FUNCTION";
      case ERROR_FILE_NOT_FOUND -> "ERROR_FILE_NOT_FOUND";
      case ERROR_PATH_NOT_FOUND -> "ERROR_PATH_NOT_FOUND";
      case ERROR_ACCESS_DENIED -> "ERROR_ACCESS_DENIED";
      case ERROR_NO_MORE_FILES -> "ERROR_NO_MORE_FILES";
      case ERROR_NOT_READY -> "ERROR_NOT_READY";
      case ERROR_INVALID_PARAMETER -> "ERROR_INVALID_PARAMETER";
      case ERROR_BUFFER_OVERFLOW -> "ERROR_BUFFER_OVERFLOW";
      case ERROR_INSUFFICIENT_BUFFER -> "ERROR_INSUFFICIENT_BUFFER";
      case ERROR_MORE_DATA -> "ERROR_MORE_DATA";
      case ERROR_UNSUPPORTED_TYPE -> "ERROR_UNSUPPORTED_TYPE";
      case ERROR_MUI_FILE_NOT_FOUND -> "ERROR_MUI_FILE_NOT_FOUND";
      default -> String.format(Locale.ROOT, "error %d", code);
    };
  }
}
