/**
 * Node counters on Windows through the Performance Data Helper (PDH), read as raw values.
 *
 * <p>{@link io.winstats.perfcounters.pdh.PdhNodeSource} opens one PDH query per perf object (the counter sets declared
 * in {@code io.winstats.perfcounters.counters}, English paths through {@code PdhAddEnglishCounterW}, wildcard
 * instances), runs every PDH call on one dedicated daemon thread, and turns raw arrays into exact cumulative figures.
 * Each perf object has one small mapping class ({@code PdhProcessorInformation}, {@code PdhMemory}, {@code
 * PdhNetworkInterface}, {@code PdhLogicalDisk}, {@code PdhSystem}, plus {@code PdhCustomCounters}) that declares the
 * counters it reads and maps one collect to its part of the sample: the figures of the object's binding table
 * ({@code …perfcounters.binding}) through {@code PdhReadings.fill}, and the object's special cases by hand.
 * All PDH access goes through the narrow port {@link io.winstats.perfcounters.pdh.PdhLibrary}, in Java terms; its JNA
 * implementation lives in the sub-package {@code pdh.jna}, the only place below {@code pdh} that touches JNA (a fence
 * the build checks), and {@code sources.NodeCounterSources} hands it to the source. Nothing here depends on JNA, so
 * everything above the port runs and is tested off Windows with a fake.
 */
@NullMarked
package io.winstats.perfcounters.pdh;

import org.jspecify.annotations.NullMarked;
