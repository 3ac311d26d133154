package io.winstats.cri.npipe;

/**
 * The Win32 error codes the named-pipe client handles, by name (values from the Windows SDK {@code winerror.h}). An
 * error code is never passed around as a bare number: messages name it through {@link #describe(int)}.
 */
enum Win32Error {
  ERROR_FILE_NOT_FOUND(2),
  ERROR_ACCESS_DENIED(5),
  ERROR_INVALID_HANDLE(6),
  ERROR_INVALID_PARAMETER(87),
  ERROR_BROKEN_PIPE(109),
  ERROR_SEM_TIMEOUT(121),
  ERROR_INSUFFICIENT_BUFFER(122),
  ERROR_PIPE_BUSY(231),
  ERROR_NO_DATA(232),
  ERROR_PIPE_NOT_CONNECTED(233),
  ERROR_MORE_DATA(234),
  ERROR_PIPE_CONNECTED(535),
  ERROR_OPERATION_ABORTED(995),
  ERROR_IO_INCOMPLETE(996),
  ERROR_IO_PENDING(997),
  ERROR_NOT_FOUND(1168);

  final int code;

  Win32Error(int code) {
    this.code = code;
  }

  boolean is(int error) {
    return code == error;
  }

  /** {@code ERROR_PIPE_BUSY (231)}, or {@code Win32 error 1234} for a code not listed here. */
  static String describe(int error) {
    for (Win32Error e : values()) {
      if (e.code == error) {
        return e.name() + " (" + error + ")";
      }
    }
    return "Win32 error " + Integer.toUnsignedString(error);
  }

  /** The peer closed its end: a read reports end of stream. */
  static boolean isEndOfStream(int error) {
    return ERROR_BROKEN_PIPE.is(error) || ERROR_PIPE_NOT_CONNECTED.is(error) || ERROR_NO_DATA.is(error);
  }
}
