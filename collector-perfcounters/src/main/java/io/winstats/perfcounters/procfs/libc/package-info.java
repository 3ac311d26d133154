/**
 * The one libc call of the Linux source, {@code statvfs(3)}, through JNA: the only code of the procfs source that
 * touches JNA (a fence the build checks). {@code procfs.Statvfs} turns its fields into sizes and inode counts.
 */
@NullMarked
package io.winstats.perfcounters.procfs.libc;

import org.jspecify.annotations.NullMarked;
