package io.winstats.cri.npipe;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import com.sun.jna.win32.StdCallLibrary;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Reads a process's token user, token owner and image path through kernel32 and advapi32: {@code OpenProcess} with
 * {@code PROCESS_QUERY_LIMITED_INFORMATION} (enough for {@code OpenProcessToken} and {@code
 * QueryFullProcessImageNameW}, also on protected processes), {@code GetTokenInformation} with the two-call size
 * protocol, {@code ConvertSidToStringSidW}. Libraries are bound on first use, so the class loads on Linux.
 * Thread-safe.
 */
public final class WindowsServerProcessInspector implements ServerProcessInspector {
  static final int PROCESS_QUERY_LIMITED_INFORMATION = 0x1000;
  static final int TOKEN_QUERY = 0x0008;
  /** {@code TOKEN_INFORMATION_CLASS} values (winnt.h). */
  static final int TOKEN_USER = 1;

  static final int TOKEN_OWNER = 4;
  /** Longer than any Win32 path the call returns without the {@code \\?\} prefix. */
  static final int MAX_IMAGE_PATH_CHARS = 32_768;

  /** The one instance; it holds no state. */
  public static final WindowsServerProcessInspector INSTANCE = new WindowsServerProcessInspector();

  private WindowsServerProcessInspector() {}

  @Override
  public PipeServerProcess inspect(long pid) throws IOException {
    Native32 n = natives();
    Pointer process = n.kernel().OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, false, (int) pid);
    if (process == null) {
      throw new IOException("OpenProcess pid=" + pid + ": " + Win32Error.describe(Native.getLastError()));
    }
    try {
      String user = null;
      String owner = null;
      PointerByReference token = new PointerByReference();
      if (n.advapi().OpenProcessToken(process, TOKEN_QUERY, token)) {
        try {
          user = tokenSid(n, token.getValue(), TOKEN_USER);
          owner = tokenSid(n, token.getValue(), TOKEN_OWNER);
        } finally {
          n.kernel().CloseHandle(token.getValue());
        }
      }
      return new PipeServerProcess(pid, user, owner, imagePath(n, process));
    } finally {
      n.kernel().CloseHandle(process);
    }
  }

  /**
   * The SID at the start of a {@code TOKEN_USER} ({@code SID_AND_ATTRIBUTES}) or {@code TOKEN_OWNER} structure; both
   * begin with the SID pointer. {@code null} if the token does not say.
   */
  private static @Nullable String tokenSid(Native32 n, Pointer token, int infoClass) {
    IntByReference needed = new IntByReference();
    // The size probe fails with ERROR_INSUFFICIENT_BUFFER and sets the size.
    n.advapi().GetTokenInformation(token, infoClass, null, 0, needed);
    if (needed.getValue() <= 0) {
      return null;
    }
    try (Memory info = new Memory(needed.getValue())) {
      if (!n.advapi().GetTokenInformation(token, infoClass, info, needed.getValue(), needed)) {
        return null;
      }
      return sidString(n, info.getPointer(0));
    }
  }

  private static @Nullable String sidString(Native32 n, @Nullable Pointer sid) {
    if (sid == null) {
      return null;
    }
    PointerByReference text = new PointerByReference();
    if (!n.advapi().ConvertSidToStringSidW(sid, text)) {
      return null;
    }
    try {
      return text.getValue().getWideString(0);
    } finally {
      n.kernel().LocalFree(text.getValue());
    }
  }

  private static @Nullable String imagePath(Native32 n, Pointer process) {
    char[] buffer = new char[MAX_IMAGE_PATH_CHARS];
    IntByReference length = new IntByReference(buffer.length);
    if (!n.kernel().QueryFullProcessImageNameW(process, 0, buffer, length)) {
      return null;
    }
    return new String(buffer, 0, length.getValue());
  }

  /**
   * {@code TOKEN_USER}: one {@code SID_AND_ATTRIBUTES}, 16 bytes on x64 with the SID pointer at 0. Used for its
   * layout only (tests check it against the SDK).
   */
  @Structure.FieldOrder({"Sid", "Attributes"})
  public static final class TokenUser extends Structure {
    /** PSID. */
    public @Nullable Pointer Sid;
    /** DWORD. */
    public int Attributes;

    int offsetOf(String field) {
      return fieldOffset(field);
    }
  }

  /** {@code TOKEN_OWNER}: the default owner's PSID, 8 bytes on x64. Used for its layout only. */
  @Structure.FieldOrder({"Owner"})
  public static final class TokenOwner extends Structure {
    /** PSID. */
    public @Nullable Pointer Owner;
  }

  /** The kernel32 functions used here, by their exact names. */
  interface Kernel32Processes extends StdCallLibrary {
    @Nullable
    Pointer OpenProcess(int desiredAccess, boolean inheritHandle, int processId);

    boolean QueryFullProcessImageNameW(Pointer process, int flags, char[] exeName, IntByReference size);

    @Nullable
    Pointer LocalFree(Pointer memory);

    boolean CloseHandle(Pointer handle);
  }

  /** The advapi32 functions used here, by their exact names. */
  interface Advapi32Tokens extends StdCallLibrary {
    boolean OpenProcessToken(Pointer process, int desiredAccess, PointerByReference token);

    boolean GetTokenInformation(
        Pointer token, int infoClass, @Nullable Pointer info, int infoLength, IntByReference returnLength);

    boolean ConvertSidToStringSidW(Pointer sid, PointerByReference stringSid);
  }

  record Native32(Kernel32Processes kernel, Advapi32Tokens advapi) {}

  private static volatile @Nullable Native32 natives;

  /** Whether the libraries have been bound in this JVM (never on Linux). */
  static boolean bound() {
    return natives != null;
  }

  private static Native32 natives() {
    Native32 n = natives;
    if (n == null) {
      synchronized (WindowsServerProcessInspector.class) {
        n = natives;
        if (n == null) {
          n = new Native32(
              Native.load("kernel32", Kernel32Processes.class), Native.load("advapi32", Advapi32Tokens.class));
          natives = n;
        }
      }
    }
    return n;
  }
}
