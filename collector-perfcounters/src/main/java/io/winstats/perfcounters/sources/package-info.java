/**
 * {@link io.winstats.perfcounters.sources.NodeSourceSpec} is a {@code --node.source} value, parsed once; {@link
 * io.winstats.perfcounters.sources.NodeCounterSources} opens the source it names. It is the one package that knows
 * every implementation, so that the node model above them does not.
 */
@NullMarked
package io.winstats.perfcounters.sources;

import org.jspecify.annotations.NullMarked;
