package io.winstats.testing;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnitAccess;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The condition behind {@link Fences#RECORDS_BUILT_BY_NAME}: a class calls the canonical constructor of a record that
 * has a generated builder (RecordBuilder's {@code XBuilder}) only if it is that builder or nested in it. A positional
 * call lets two components of one type swap silently, and compiles on when a component is added with a shorter
 * overload beside it; the builder names every component.
 *
 * <p>A record {@code p.X} (or {@code p.Outer.X}) has a generated builder when {@code p.XBuilder} (or {@code
 * p.OuterXBuilder}, RecordBuilder's name for a nested record) is on the class path with a {@code build()} that returns
 * the record: found by name and by reflection, so a record of any module is covered once it is annotated
 * {@code @RecordBuilder}, whatever options it chose. The static {@code XBuilder.X(a, b, ...)} factory, the same
 * positional call under another name, is refused too (the build turns it off with {@code -AaddStaticBuilder=false}).
 */
final class BuiltByName extends ArchCondition<JavaClass> {
  /** Record name to its builder's name, or empty when the type is no record or has no generated builder. */
  private final Map<String, Optional<String>> builders = new ConcurrentHashMap<>();

  BuiltByName() {
    super("call the canonical constructor of a record with a generated builder only from that builder");
  }

  @Override
  public void check(JavaClass caller, ConditionEvents events) {
    List<JavaCodeUnitAccess<?>> constructions = new ArrayList<>();
    constructions.addAll(caller.getConstructorCallsFromSelf());
    constructions.addAll(caller.getConstructorReferencesFromSelf());
    for (JavaCodeUnitAccess<?> construction : constructions) {
      String record = construction.getTargetOwner().getName();
      Optional<String> builder = builderOf(record);
      if (builder.isPresent()
          && !isOrIsNestedIn(caller, builder.get())
          && isCanonical(record, construction.getTarget().getRawParameterTypes())) {
        events.add(
            SimpleConditionEvent.violated(
                construction,
                construction.getDescription()
                    + ": builds "
                    + record
                    + " positionally; name its components through "
                    + builder.get()));
      }
    }
    for (JavaMethodCall call : caller.getMethodCallsFromSelf()) {
      String owner = call.getTargetOwner().getName();
      Optional<String> builder = builderOf(call.getTarget().getRawReturnType().getName());
      if (builder.isPresent() && builder.get().equals(owner) && !isOrIsNestedIn(caller, owner)
          && !call.getName().equals("build")) {
        events.add(
            SimpleConditionEvent.violated(
                call, call.getDescription() + ": a positional factory of " + owner + "; set each component by name"));
      }
    }
  }

  private Optional<String> builderOf(String type) {
    return builders.computeIfAbsent(type, BuiltByName::generatedBuilderOf);
  }

  private static boolean isOrIsNestedIn(JavaClass caller, String builder) {
    return caller.getName().equals(builder) || caller.getName().startsWith(builder + "$");
  }

  private static Optional<String> generatedBuilderOf(String type) {
    Class<?> record = load(type).orElse(null);
    if (record == null || !record.isRecord()) {
      return Optional.empty();
    }
    String packagePrefix = record.getPackageName().isEmpty() ? "" : record.getPackageName() + ".";
    String builderName = packagePrefix + type.substring(packagePrefix.length()).replace("$", "") + "Builder";
    return load(builderName)
        .filter(
            builder ->
                Arrays.stream(builder.getDeclaredMethods())
                    .anyMatch(m -> m.getName().equals("build") && m.getParameterCount() == 0 && returns(m, record)))
        .map(Class::getName);
  }

  private static boolean returns(Method method, Class<?> type) {
    return method.getReturnType().equals(type);
  }

  private static boolean isCanonical(String record, List<JavaClass> parameters) {
    Class<?> type = load(record).orElseThrow();
    List<String> components =
        Arrays.stream(type.getRecordComponents()).map(RecordComponent::getType).map(Class::getName).toList();
    return parameters.stream().map(JavaClass::getName).toList().equals(components);
  }

  private static Optional<Class<?>> load(String name) {
    try {
      return Optional.of(Class.forName(name, false, BuiltByName.class.getClassLoader()));
    } catch (ClassNotFoundException | LinkageError e) {
      return Optional.empty();
    }
  }
}
