package io.winstats.perfcounters.win32.jna;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;

/**
 * winioctl.h's {@code VOLUME_DISK_EXTENTS}, the answer of {@code IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS}: {@code DWORD
 * NumberOfDiskExtents; DISK_EXTENT Extents[ANYSIZE_ARRAY];}, the array as long as the count says, so only its first
 * element is declared here. x64: 32 bytes, the extents from byte 8, each 24 bytes apart, as upstream reads them
 * ({@code diskExtentSize = 24}, {@code volumeDiskExtents[8+i*diskExtentSize:]}, {@code
 * internal/collector/logical_disk/logical_disk.go:577-578,625-627@v0.31.8}); jna-platform 5.18.1 has neither
 * structure.
 */
@FieldOrder({"NumberOfDiskExtents", "Extents"})
public final class VolumeDiskExtents extends Structure {
  public int NumberOfDiskExtents;
  public DiskExtent[] Extents = new DiskExtent[1];

  public VolumeDiskExtents() {
    super();
  }

  /** For the layout test. */
  int offsetOf(String field) {
    return fieldOffset(field);
  }

  /** {@code DISK_EXTENT}: {@code DWORD DiskNumber; LARGE_INTEGER StartingOffset; LARGE_INTEGER ExtentLength;}. */
  @FieldOrder({"DiskNumber", "StartingOffset", "ExtentLength"})
  public static final class DiskExtent extends Structure {
    public int DiskNumber;
    public long StartingOffset;
    public long ExtentLength;

    public DiskExtent() {
      super();
    }

    /** The extent at {@code p}, read. */
    public DiskExtent(Pointer p) {
      super(p);
      read();
    }

    /** For the layout test. */
    int offsetOf(String field) {
      return fieldOffset(field);
    }
  }
}
