package dev.neardup.runtime;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Replaces the JVM's handler of a signal (SIGINT, SIGTERM, SIGHUP) through {@code sun.misc.Signal},
 * by reflection, for {@link Interruption} and {@link StopOnSignal}. Design:
 * docs/design/local-runs.md.
 */
public final class SignalHandlers {

    private SignalHandlers() {}

    /** The exit code of a run that a signal stopped: 130 for SIGINT and SIGTERM, 129 for SIGHUP. */
    public static int exitCode(String name) {
        return name.equals("HUP") ? 129 : 130;
    }

    /**
     * Calls {@code onSignal} with the name ("INT", "TERM", "HUP") each time one of the signals
     * {@code names} arrives, instead of the JVM's handling (where the JVM lets it be replaced).
     *
     * @return what puts the previous handlers back (once)
     */
    public static Runnable handle(List<String> names, Consumer<String> onSignal) {
        List<Runnable> restore = new ArrayList<>();
        for (String name : names) {
            Runnable previous = handle(name, onSignal);
            if (previous != null) {
                restore.add(previous);
            }
        }
        return () -> {
            restore.forEach(Runnable::run);
            restore.clear();
        };
    }

    /** Handles one signal; returns what puts its previous handler back, or null if it cannot. */
    private static Runnable handle(String name, Consumer<String> onSignal) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Object sig = signalClass.getConstructor(String.class).newInstance(name);
            InvocationHandler dispatch =
                    (Object proxy, Method method, Object[] args) ->
                            switch (method.getName()) {
                                case "handle" -> {
                                    onSignal.accept(name);
                                    yield null;
                                }
                                case "equals" -> proxy == args[0];
                                case "hashCode" -> System.identityHashCode(proxy);
                                default -> "neardup handler of SIG" + name;
                            };
            Object handler =
                    Proxy.newProxyInstance(
                            SignalHandlers.class.getClassLoader(),
                            new Class<?>[] {handlerClass},
                            dispatch);
            Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
            Object previous = handle.invoke(null, sig, handler);
            if (previous != null && previous.equals(handlerClass.getField("SIG_IGN").get(null))) {
                handle.invoke(null, sig, previous); // ignored: stays so
                return null;
            }
            return () -> {
                try {
                    handle.invoke(null, sig, previous);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    // the JVM is going away anyway
                }
            };
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // no sun.misc.Signal, or the signal is reserved: the JVM's handling stays
        }
    }
}
