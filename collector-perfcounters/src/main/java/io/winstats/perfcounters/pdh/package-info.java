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
 * All PDH access goes through the narrow port {@link io.winstats.perfcounters.pdh.PdhLibrary};
 * {@link io.winstats.perfcounters.pdh.JnaPdhLibrary} and its {@code Structure} classes are the only code in this
 * package that touches JNA (elsewhere only {@code procfs.Statvfs} and the named pipe in collector-cri do, a fence the
 * build checks), and nothing here loads {@code pdh.dll} before the first PDH call.
 */
@NullMarked
package io.winstats.perfcounters.pdh;

import org.jspecify.annotations.NullMarked;
