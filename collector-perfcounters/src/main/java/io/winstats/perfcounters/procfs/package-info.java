/**
 * The Linux node source: {@link io.winstats.perfcounters.procfs.ProcfsNodeSource} reads {@code /proc} under an
 * injectable root, filesystem bytes and inodes through {@code statvfs(3)} ({@code Statvfs}; the call itself, the
 * source's one use of JNA, is in the sub-package {@code procfs.libc}), else {@link java.nio.file.FileStore}. Each file
 * has a pure parser, a static {@code parse(String)} on a package-private record, tested on fixtures captured from real
 * machines.
 */
@NullMarked
package io.winstats.perfcounters.procfs;

import org.jspecify.annotations.NullMarked;
