package io.winstats.exporter.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * The files an operator hands the daemon (the configuration file, the web config, certificates, keys, the bearer
 * token), read with what is wrong said as the operator would say it ("no such file"), never an exception's class name.
 * The caller names the file, each in its own words.
 */
public final class OperatorFiles {
  private OperatorFiles() {}

  /**
   * The YAML mapper, made on first use: data binding is loaded only when a YAML file is read. A key given twice is
   * refused, since which one wins would be a guess.
   */
  private static final class Yaml {
    static final ObjectMapper MAPPER =
        new ObjectMapper(new YAMLFactory()).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  }

  /** A file that could not be read or parsed; the message says why, without the file's name. */
  public static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(String why, Throwable cause) {
      super(why, cause);
    }
  }

  /** The YAML document {@code file} holds: null, or a missing or null node, for an empty one. */
  public static @Nullable JsonNode readYaml(Path file) throws Unreadable {
    String text = readText(file);
    try {
      return Yaml.MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new Unreadable("not valid YAML: " + e.getOriginalMessage(), e);
    }
  }

  /** {@code value} as a YAML document, as the daemon prints a file an operator may hand back to it. */
  public static String yaml(Object value) {
    try {
      return Yaml.MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code file}'s text, as UTF-8. */
  public static String readText(Path file) throws Unreadable {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new Unreadable(why(e), e);
    }
  }

  /** An I/O failure as an operator reads it: what is wrong with the file, not the exception's class name. */
  public static String why(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof CharacterCodingException) {
      return "not UTF-8 text";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      // "Is a directory" and the like; getMessage() would repeat the file's name.
      return f.getReason();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
