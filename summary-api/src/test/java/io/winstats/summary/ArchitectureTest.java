package io.winstats.summary;

import io.winstats.testing.Fences;
import org.junit.jupiter.api.Test;

/** The build's import fences (JNA, gRPC, Undertow, the exposition libraries, Jackson, leaf collectors, no cycles) over this module's classes. */
class ArchitectureTest {

  @Test
  void mainClassesStayInsideTheFences() {
    Fences.checkAll(Fences.mainClassesOf("io.winstats.summary", SummaryJson.class));
  }
}
