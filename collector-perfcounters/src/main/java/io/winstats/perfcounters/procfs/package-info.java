/**
 * The Linux node source: {@link io.winstats.perfcounters.procfs.ProcfsNodeSource} reads {@code /proc} under an
 * injectable root, filesystem bytes through {@link java.nio.file.FileStore} and inodes through {@code statvfs(3)}
 * ({@code Statvfs}, this package's one use of JNA). Each file has a pure parser, a
 * static {@code parse(String)} on a package-private record, tested on fixtures captured from real machines.
 */
@NullMarked
package io.winstats.perfcounters.procfs;

import org.jspecify.annotations.NullMarked;
