/*
 * Copyright (c) 2026, the ASGST authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
 */

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassElement;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.MethodTransform;
import java.lang.classfile.instruction.ReturnInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * Loads classes from its class path itself (child first) and instruments every
 * method with code, except constructors and static initializers, with the
 * JDK's class-file API: TraceStack.enter(id) at the start, TraceStack.exit()
 * before each return and in a catch-all handler that rethrows. Classes of the
 * JDK come from the platform class loader, uninstrumented; a class the API
 * cannot transform is defined as it is (its methods are then not traced).
 */
final class TracingClassLoader extends ClassLoader {
    static final ClassDesc TRACE_STACK = ClassDesc.of("TraceStack");
    static final MethodTypeDesc ENTER = MethodTypeDesc.ofDescriptor("(I)V");
    static final MethodTypeDesc EXIT = MethodTypeDesc.ofDescriptor("()V");

    private final URLClassLoader resources;
    private final ClassFile classFile;
    private final List<String> methods = new ArrayList<>();  // "pkg.Class.name(descriptor)" by id
    int instrumentedClasses;
    int failedClasses;

    TracingClassLoader(URL[] classPath, ClassLoader parent) {
        super("tracing", parent);
        resources = new URLClassLoader(classPath, null);
        classFile = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
            ClassHierarchyResolver.defaultResolver()
                .orElse(ClassHierarchyResolver.ofResourceParsing(resources))
                .orElse(ClassHierarchyResolver.ofResourceParsing(parent))
                .cached()));
    }

    synchronized String methodName(int id) {
        return id >= 0 && id < methods.size() ? methods.get(id) : "#" + id;
    }

    synchronized int methodCount() {
        return methods.size();
    }

    private synchronized int register(String name) {
        methods.add(name);
        return methods.size() - 1;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null && !name.equals("TraceStack")) {
                try {
                    c = ClassLoader.getPlatformClassLoader().loadClass(name);
                } catch (ClassNotFoundException e) {
                    c = defineTraced(name);
                }
            }
            if (c == null) {
                c = getParent().loadClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private Class<?> defineTraced(String name) throws ClassNotFoundException {
        byte[] bytes;
        try (InputStream in = resources.getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
                return null;
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
        byte[] traced = instrument(bytes);
        return defineClass(name, traced, 0, traced.length);
    }

    byte[] instrument(byte[] bytes) {
        try {
            ClassModel model = classFile.parse(bytes);
            String owner = model.thisClass().asInternalName().replace('/', '.');
            byte[] traced = classFile.transformClass(model, (builder, element) -> {
                if (element instanceof MethodModel method && traced(method)) {
                    int id = register(owner + "." + method.methodName().stringValue() + method.methodType().stringValue());
                    builder.transformMethod(method, MethodTransform.transformingCode(new TracingCode(id)));
                } else {
                    builder.with((ClassElement) element);
                }
            });
            instrumentedClasses++;
            return traced;
        } catch (RuntimeException | LinkageError e) {
            failedClasses++;
            return bytes;
        }
    }

    static boolean traced(MethodModel method) {
        String name = method.methodName().stringValue();
        return method.code().isPresent() && !name.equals("<init>") && !name.equals("<clinit>");
    }

    /** Brackets a method's code with enter and exit. */
    static final class TracingCode implements CodeTransform {
        private final int id;
        private Label start;

        TracingCode(int id) {
            this.id = id;
        }

        @Override
        public void atStart(CodeBuilder builder) {
            builder.loadConstant(id);
            builder.invokestatic(TRACE_STACK, "enter", ENTER);
            start = builder.newBoundLabel();
        }

        @Override
        public void accept(CodeBuilder builder, CodeElement element) {
            if (element instanceof ReturnInstruction) {
                builder.invokestatic(TRACE_STACK, "exit", EXIT);
            }
            builder.with(element);
        }

        @Override
        public void atEnd(CodeBuilder builder) {
            // Added last, so the method's own handlers come first.
            Label end = builder.newBoundLabel();
            builder.invokestatic(TRACE_STACK, "exit", EXIT);
            builder.athrow();
            builder.exceptionCatchAll(start, end, end);
        }
    }

    @Override
    protected URL findResource(String name) {
        return resources.getResource(name);
    }

    @Override
    protected Enumeration<URL> findResources(String name) throws IOException {
        return resources.getResources(name);
    }
}
