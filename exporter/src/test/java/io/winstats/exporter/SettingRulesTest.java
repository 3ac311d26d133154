package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each setting's {@link ValueRule}, which the Helm chart checks before a pod starts ({@link ConfigSchema}), agrees with
 * the setting's parser, the daemon's own check: what the rule takes the daemon takes, and the edges it refuses the
 * daemon refuses.
 */
class SettingRulesTest {

  @Test
  void everyChoiceIsTakenAndNothingElse() {
    int withChoices = 0;
    for (Setting<?> s : Settings.ALL) {
      for (String choice : s.rule().choices()) {
        assertThat(s.parser().parse(choice)).as("%s takes %s", s.name(), choice).isNotNull();
        assertThatThrownBy(() -> s.parser().parse(choice + "x")).as("%s refuses %sx", s.name(), choice)
            .isInstanceOf(IllegalArgumentException.class);
        withChoices++;
      }
    }
    assertThat(withChoices).as("choices of log.level, log.format, cri.stats-call, ...").isGreaterThanOrEqualTo(11);
  }

  @Test
  void aRangesEdgesAreTakenAndWhatIsBeyondThemRefused() {
    for (Setting<?> s : Settings.ALL) {
      Long min = s.rule().minimum();
      Long max = s.rule().maximum();
      if (min != null) {
        assertThat(s.parser().parse(Long.toString(min))).as("%s takes %s", s.name(), min).isNotNull();
        if (min > 0) {
          assertThatThrownBy(() -> s.parser().parse(Long.toString(min - 1))).as("%s below %s", s.name(), min)
              .isInstanceOf(IllegalArgumentException.class);
        }
      }
      if (max != null) {
        assertThat(s.parser().parse(Long.toString(max))).as("%s takes %s", s.name(), max).isNotNull();
        if (max < Long.MAX_VALUE) {
          assertThatThrownBy(() -> s.parser().parse(Long.toString(max + 1))).as("%s above %s", s.name(), max)
              .isInstanceOf(IllegalArgumentException.class);
        }
      }
    }
    assertThat(Settings.byName("web.max-connections").rule().minimum()).isEqualTo(1L);
  }

  /** The schema's pattern of each kind takes the settings' defaults and refuses what their parsers refuse. */
  @Test
  void theSchemasPatternsAgreeWithTheParsers() {
    JsonNode properties = ConfigSchema.configSection().get("properties");
    for (Setting<?> s : Settings.inFile()) {
      JsonNode value = properties.get(s.name());
      assertThat(value).as("%s in the schema, dotted", s.name()).isNotNull();
      String pattern = value.has("pattern") ? value.get("pattern").asText()
          : value.has("anyOf") ? value.get("anyOf").get(1).path("pattern").asText(null) : null;
      if (pattern == null) {
        continue;
      }
      Pattern p = Pattern.compile(pattern);
      if (s.defaultValue() != null) {
        assertThat(p.matcher(s.defaultValue()).find()).as("%s's default %s", s.name(), s.defaultValue()).isTrue();
      }
      for (String bad : new String[] {"ten", "1.5s", "-1s", "1 KB", "x1"}) {
        boolean taken = p.matcher(bad).find();
        boolean parsed;
        try {
          s.parser().parse(bad);
          parsed = true;
        } catch (IllegalArgumentException e) {
          parsed = false;
        }
        if (taken) {
          assertThat(parsed).as("%s: the schema takes '%s', the daemon must too", s.name(), bad).isTrue();
        }
      }
    }
  }

  @Test
  void aNameUnderAnotherIsWrittenNestedOrDotted() {
    JsonNode properties = ConfigSchema.configSection().get("properties");
    assertThat(properties.at("/sampling/properties/interval/pattern").asText()).contains("ms|s|m|h");
    assertThat(properties.at("/web/properties/config.file")).isNotNull();
    assertThat(properties.at("/web/properties/config/properties/file").isMissingNode()).isFalse();
    assertThat(properties.at("/log/properties/level/enum").toString())
        .isEqualTo("[\"debug\",\"info\",\"warn\",\"error\"]");
    assertThat(properties.has("config.file")).as("command line only").isFalse();
  }
}
