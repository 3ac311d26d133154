/**
 * The node model shared by every platform: one {@link io.winstats.perfcounters.NodeCounterSource} interface and its
 * immutable {@link io.winstats.perfcounters.NodeSample} records. The implementations, PDH (Windows), procfs (Linux)
 * and replay (recorded CSV), live in sub-packages that depend on this one, never the reverse; {@code sources} picks one
 * by name.
 */
@NullMarked
package io.winstats.perfcounters;

import org.jspecify.annotations.NullMarked;
