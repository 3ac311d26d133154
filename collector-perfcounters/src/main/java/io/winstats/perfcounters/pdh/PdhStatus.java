package io.winstats.perfcounters.pdh;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The PDH status codes this package handles, by name and value.
 *
 * <p>Values are the {@code DWORD} constants of {@code pdhmsg.h}, held as Java {@code int} (so the error codes are
 * negative, as in JNA's {@code PdhMsg}). They were checked against mingw-w64 10.0.0 {@code
 * mingw-w64-headers/include/pdhmsg.h}, against {@code com.sun.jna.platform.win32.PdhMsg} of jna-platform 5.18.1 and
 * against independent public ports of {@code pdhmsg.h}. {@link #ERROR_SUCCESS} and {@link #PDH_CSTATUS_VALID_DATA}
 * share the value 0; {@link #fromCode(int)} answers {@code ERROR_SUCCESS} for it.
 *
 * <p>Codes not listed here are never mapped to a nearby constant: {@link #describe(int)} renders them as
 * {@code 0x%08X}.
 */
public enum PdhStatus {
  ERROR_SUCCESS(0x00000000, Kind.OK),
  PDH_CSTATUS_VALID_DATA(0x00000000, Kind.OK),
  PDH_CSTATUS_NEW_DATA(0x00000001, Kind.OK),
  PDH_CSTATUS_NO_MACHINE(0x800007D0, Kind.TRANSIENT),
  PDH_CSTATUS_NO_INSTANCE(0x800007D1, Kind.TRANSIENT),
  PDH_MORE_DATA(0x800007D2, Kind.PROTOCOL),
  PDH_CSTATUS_ITEM_NOT_VALIDATED(0x800007D3, Kind.TRANSIENT),
  PDH_RETRY(0x800007D4, Kind.TRANSIENT),
  PDH_NO_DATA(0x800007D5, Kind.TRANSIENT),
  PDH_CALC_NEGATIVE_DENOMINATOR(0x800007D6, Kind.TRANSIENT),
  PDH_CALC_NEGATIVE_TIMEBASE(0x800007D7, Kind.TRANSIENT),
  PDH_CALC_NEGATIVE_VALUE(0x800007D8, Kind.TRANSIENT),
  PDH_CSTATUS_NO_OBJECT(0xC0000BB8, Kind.MISSING),
  PDH_CSTATUS_NO_COUNTER(0xC0000BB9, Kind.MISSING),
  PDH_CSTATUS_INVALID_DATA(0xC0000BBA, Kind.TRANSIENT),
  PDH_MEMORY_ALLOCATION_FAILURE(0xC0000BBB, Kind.TRANSIENT),
  PDH_INVALID_HANDLE(0xC0000BBC, Kind.PERMANENT),
  PDH_INVALID_ARGUMENT(0xC0000BBD, Kind.PERMANENT),
  PDH_FUNCTION_NOT_FOUND(0xC0000BBE, Kind.PERMANENT),
  PDH_CSTATUS_NO_COUNTERNAME(0xC0000BBF, Kind.PERMANENT),
  PDH_CSTATUS_BAD_COUNTERNAME(0xC0000BC0, Kind.PERMANENT),
  PDH_INSUFFICIENT_BUFFER(0xC0000BC2, Kind.PROTOCOL),
  PDH_INVALID_PATH(0xC0000BC4, Kind.PERMANENT),
  PDH_INVALID_INSTANCE(0xC0000BC5, Kind.PERMANENT),
  PDH_INVALID_DATA(0xC0000BC6, Kind.TRANSIENT),
  PDH_CANNOT_READ_NAME_STRINGS(0xC0000BC8, Kind.MISSING),
  PDH_NOT_IMPLEMENTED(0xC0000BD3, Kind.PERMANENT),
  PDH_ACCESS_DENIED(0xC0000BDB, Kind.PERMANENT),
  PDH_NO_COUNTERS(0xC0000BDF, Kind.PERMANENT),
  PDH_QUERY_PERF_DATA_TIMEOUT(0xC0000BFE, Kind.TRANSIENT);

  /** How a caller should treat a status. */
  public enum Kind {
    /** Success, or valid item data. */
    OK,
    /** Skip this sample or item and try again on the next collect. */
    TRANSIENT,
    /** The object, counter or name table is absent; worth adding the counter again later. */
    MISSING,
    /** Part of a buffer-size protocol; never surfaces from the port. */
    PROTOCOL,
    /** A bad path, argument, handle or missing right; retrying the same call does not help. */
    PERMANENT
  }

  private static final Map<Integer, PdhStatus> BY_CODE = new HashMap<>();

  static {
    for (PdhStatus s : values()) {
      BY_CODE.putIfAbsent(s.code, s);
    }
  }

  private final int code;
  private final Kind kind;

  PdhStatus(int code, Kind kind) {
    this.code = code;
    this.kind = kind;
  }

  /** The status as PDH returns it: the {@code DWORD} value held in a Java {@code int}. */
  public int code() {
    return code;
  }

  /** How callers treat this status. */
  public Kind kind() {
    return kind;
  }

  /** {@code 0x%08X} of {@link #code()}, such as {@code 0xC0000BB8}. */
  public String hex() {
    return hex(code);
  }

  /**
   * The constant for {@code code}; empty for a code this enum does not list. 0 gives {@link #ERROR_SUCCESS}.
   */
  public static Optional<PdhStatus> fromCode(int code) {
    return Optional.ofNullable(BY_CODE.get(code));
  }

  /**
   * The name of {@code code} for logs and health labels: the constant's name, or the hex value for an unknown code.
   */
  public static String describe(int code) {
    PdhStatus s = BY_CODE.get(code);
    return s != null ? s.name() : hex(code);
  }

  /** {@code 0x%08X} of any code. */
  public static String hex(int code) {
    return String.format(Locale.ROOT, "0x%08X", code);
  }

  /** Whether an item's {@code CStatus} says its data may be used: {@code VALID_DATA} or {@code NEW_DATA}. */
  public static boolean isValidItemStatus(int cStatus) {
    return cStatus == PDH_CSTATUS_VALID_DATA.code || cStatus == PDH_CSTATUS_NEW_DATA.code;
  }
}
