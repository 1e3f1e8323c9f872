package dev.neardup.runtime;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
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
     * Calls {@code onSignal} with the name ("INT", "TERM", "HUP") each time signal {@code name}
     * arrives, instead of the JVM's handling.
     *
     * @return what puts the previous handler back, or null when the handler could not be set: no
     *     {@code sun.misc.Signal}, a JVM run with {@code -Xrs}, or a signal the process ignores (a
     *     background job of a non-interactive shell ignores SIGINT, a {@code nohup} run SIGHUP; the
     *     JVM keeps it ignored)
     */
    public static Runnable handle(String name, Consumer<String> onSignal) {
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
