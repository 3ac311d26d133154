/**
 * The node model shared by every platform: one {@link io.winstats.perfcounters.NodeCounterSource} interface, its
 * immutable {@link io.winstats.perfcounters.NodeSample} records, and the factory that picks the platform's source.
 * PDH (Windows), procfs (Linux) and replay (recorded CSV) implementations live in sub-packages beside it.
 */
@NullMarked
package io.winstats.perfcounters;

import org.jspecify.annotations.NullMarked;
