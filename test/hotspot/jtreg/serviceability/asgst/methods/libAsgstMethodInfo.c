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

/*
 * Compares ASGST's method and class information with JVMTI's, over every
 * method of the loaded classes, and checks truncation and garbage handles.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

static jvmtiEnv* jvmti;
static char message[2048];

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  jvmtiCapabilities capabilities;
  (void)reserved;
  if (asgst_test_load_jvmti(vm, &jvmti) == JNI_ERR) {
    return JNI_ERR;
  }
  memset(&capabilities, 0, sizeof(capabilities));
  capabilities.can_get_line_numbers = 1;
  return (*jvmti)->AddCapabilities(jvmti, &capabilities) == JVMTI_ERROR_NONE ? JNI_VERSION_1_8 : JNI_ERR;
}

static void release(void* p) {
  if (p != NULL) (*jvmti)->Deallocate(jvmti, (unsigned char*)p);
}

/* Compares an ASGST string result with JVMTI's (null: not available). */
static int same_string(const char* ours, jint our_length, const char* theirs) {
  if (theirs == NULL) {
    return ours == NULL && our_length == 0;
  }
  return ours != NULL && our_length == (jint)strlen(theirs) && strcmp(ours, theirs) == 0;
}

static jstring fail(JNIEnv* env) {
  return (*env)->NewStringUTF(env, message);
}

static int compare_longs(const void* a, const void* b) {
  jlong x = *(const jlong*)a, y = *(const jlong*)b;
  return x < y ? -1 : x > y;
}

/* Returns null or the first difference; *methods_checked counts compared methods. */
static const char* compare_method(JNIEnv* env, jclass klass, ASGST_Class asgst_class, jmethodID id) {
  static char name[1024], signature[2048], generic[4096];
  static ASGST_MethodLineNumberEntry ours[8192];
  ASGST_Method method = ASGST_JMethodIDToMethod(id);
  ASGST_MethodInfo info;
  char *j_name = NULL, *j_signature = NULL, *j_generic = NULL;
  jint j_modifiers = 0, j_entry_count = 0;
  jvmtiLineNumberEntry* j_entries = NULL;
  jvmtiError line_error;
  int count, i;
  const char* error = NULL;

  if (method == NULL) return "ASGST_JMethodIDToMethod gave null";
  if (ASGST_MethodToJMethodID(method) != id) return "ASGST_MethodToJMethodID does not give the jmethodID back";
  info.method_name = name;
  info.method_name_length = sizeof(name);
  info.signature = signature;
  info.signature_length = sizeof(signature);
  info.generic_signature = generic;
  info.generic_signature_length = sizeof(generic);
  ASGST_GetMethodInfo(method, &info);
  (*jvmti)->GetMethodName(jvmti, id, &j_name, &j_signature, &j_generic);
  (*jvmti)->GetMethodModifiers(jvmti, id, &j_modifiers);
  if (!same_string(info.method_name, info.method_name_length, j_name)) {
    snprintf(message, sizeof(message), "name %s, JVMTI %s", info.method_name ? info.method_name : "(null)", j_name);
    error = message;
  } else if (!same_string(info.signature, info.signature_length, j_signature)) {
    snprintf(message, sizeof(message), "%s: signature %s, JVMTI %s", j_name, info.signature ? info.signature : "(null)", j_signature);
    error = message;
  } else if (!same_string(info.generic_signature, info.generic_signature_length, j_generic)) {
    snprintf(message, sizeof(message), "%s%s: generic signature %s, JVMTI %s", j_name, j_signature,
             info.generic_signature ? info.generic_signature : "(null)", j_generic ? j_generic : "(null)");
    error = message;
  } else if (info.modifiers != j_modifiers) {
    snprintf(message, sizeof(message), "%s%s: modifiers 0x%x, JVMTI 0x%x", j_name, j_signature, info.modifiers, j_modifiers);
    error = message;
  } else if (info.klass != asgst_class || info.class_idnum != ASGST_GetClassIdNum(asgst_class) ||
             info.idnum != ASGST_GetMethodIdNum(method) || info.idnum < 0) {
    snprintf(message, sizeof(message), "%s%s: class or ids differ", j_name, j_signature);
    error = message;
  }
  if (error == NULL) {
    line_error = (*jvmti)->GetLineNumberTable(jvmti, id, &j_entry_count, &j_entries);
    count = ASGST_GetMethodLineNumberTable(method, ours, (int)(sizeof(ours) / sizeof(ours[0])));
    if (line_error != JVMTI_ERROR_NONE) {
      j_entry_count = 0;  /* no table (or a native method) */
    }
    if (count != j_entry_count) {
      snprintf(message, sizeof(message), "%s%s: %d line entries, JVMTI %d", j_name, j_signature, count, (int)j_entry_count);
      error = message;
    }
    for (i = 0; error == NULL && i < count; i++) {
      if (ours[i].start_bci != (jint)j_entries[i].start_location || ours[i].line_number != j_entries[i].line_number) {
        snprintf(message, sizeof(message), "%s%s: line entry %d differs", j_name, j_signature, i);
        error = message;
      }
    }
    release(j_entries);
  }
  release(j_name);
  release(j_signature);
  release(j_generic);
  (void)env; (void)klass;
  return error;
}

/*
 * Every method of every loaded, prepared instance class: returns null and
 * sets counts[0] (classes) and counts[1] (methods), or the first difference.
 */
JNIEXPORT jstring JNICALL Java_AsgstMethodInfo_compareAll(JNIEnv* env, jclass cls, jintArray counts) {
  static char class_name[1024], generic_class_name[4096];
  jint class_count = 0, method_total = 0, classes_checked = 0;
  jclass* classes = NULL;
  jlong* class_ids;
  int i, j;
  (void)cls;
  if ((*jvmti)->GetLoadedClasses(jvmti, &class_count, &classes) != JVMTI_ERROR_NONE) {
    return (*env)->NewStringUTF(env, "GetLoadedClasses failed");
  }
  class_ids = (jlong*)calloc((size_t)class_count, sizeof(jlong));
  for (i = 0; i < class_count; i++) {
    jclass klass = classes[i];
    jint status = 0, method_count = 0, j_modifiers = 0;
    jmethodID* methods = NULL;
    char *j_signature = NULL, *j_generic = NULL;
    ASGST_Class asgst_class;
    ASGST_ClassInfo info;
    jboolean is_array = JNI_FALSE, is_interface = JNI_FALSE;
    (*jvmti)->IsArrayClass(jvmti, klass, &is_array);
    (*jvmti)->GetClassStatus(jvmti, klass, &status);
    if (is_array || (status & JVMTI_CLASS_STATUS_PRIMITIVE) || !(status & JVMTI_CLASS_STATUS_PREPARED)) {
      (*env)->DeleteLocalRef(env, klass);
      continue;
    }
    (void)is_interface;
    asgst_class = ASGST_JClassToClass(klass);
    if (asgst_class == NULL) {
      snprintf(message, sizeof(message), "ASGST_JClassToClass gave null for class %d", i);
      return fail(env);
    }
    {
      jclass back = ASGST_ClassToJClass(asgst_class);
      if (back == NULL || !(*env)->IsSameObject(env, back, klass)) {
        snprintf(message, sizeof(message), "ASGST_ClassToJClass does not give the class back");
        return fail(env);
      }
      (*env)->DeleteLocalRef(env, back);
    }
    info.class_name = class_name;
    info.class_name_length = sizeof(class_name);
    info.generic_class_name = generic_class_name;
    info.generic_class_name_length = sizeof(generic_class_name);
    ASGST_GetClassInfo(asgst_class, &info);
    (*jvmti)->GetClassSignature(jvmti, klass, &j_signature, &j_generic);
    (*jvmti)->GetClassModifiers(jvmti, klass, &j_modifiers);
    if (!same_string(info.class_name, info.class_name_length, j_signature) ||
        !same_string(info.generic_class_name, info.generic_class_name_length, j_generic) ||
        info.modifiers != j_modifiers || info.idnum != ASGST_GetClassIdNum(asgst_class) || info.idnum <= 0) {
      snprintf(message, sizeof(message), "class %s (generic %s, modifiers 0x%x): ASGST has %s (generic %s, modifiers 0x%x, id %ld)",
               j_signature, j_generic ? j_generic : "(null)", j_modifiers,
               info.class_name ? info.class_name : "(null)", info.generic_class_name ? info.generic_class_name : "(null)",
               info.modifiers, (long)info.idnum);
      return fail(env);
    }
    class_ids[classes_checked++] = info.idnum;
    if ((*jvmti)->GetClassMethods(jvmti, klass, &method_count, &methods) == JVMTI_ERROR_NONE) {
      for (j = 0; j < method_count; j++) {
        const char* error = compare_method(env, klass, asgst_class, methods[j]);
        if (error != NULL) {
          char copy[2048];
          snprintf(copy, sizeof(copy), "%s in %s", error, j_signature);
          snprintf(message, sizeof(message), "%s", copy);
          return fail(env);
        }
        method_total++;
      }
      release(methods);
    }
    release(j_signature);
    release(j_generic);
    (*env)->DeleteLocalRef(env, klass);
  }
  release(classes);
  /* Class ids are unique. */
  qsort(class_ids, (size_t)classes_checked, sizeof(jlong), compare_longs);
  for (i = 1; i < classes_checked; i++) {
    if (class_ids[i] == class_ids[i - 1]) {
      snprintf(message, sizeof(message), "two classes share id %ld", (long)class_ids[i]);
      return fail(env);
    }
  }
  free(class_ids);
  {
    jint result[2];
    result[0] = classes_checked;
    result[1] = method_total;
    (*env)->SetIntArrayRegion(env, counts, 0, 2, result);
  }
  return NULL;
}

#define SENTINEL 'x'

/* Truncation of "hashCode" (8 characters) into buffers of several sizes. */
JNIEXPORT jstring JNICALL Java_AsgstMethodInfo_checkTruncation(JNIEnv* env, jclass cls, jobject method_object) {
  jmethodID id = (*env)->FromReflectedMethod(env, method_object);
  ASGST_Method method = ASGST_JMethodIDToMethod(id);
  int sizes[] = {0, 1, 8, 9, 64};
  int k;
  (void)cls;
  for (k = 0; k < 5; k++) {
    char buffer[80];
    ASGST_MethodInfo info;
    int size = sizes[k];
    memset(buffer, SENTINEL, sizeof(buffer));
    memset(&info, 0, sizeof(info));
    info.method_name = buffer;
    info.method_name_length = size;
    ASGST_GetMethodInfo(method, &info);
    if (info.method_name != buffer || info.method_name_length != 8) {
      snprintf(message, sizeof(message), "size %d: length %d", size, (int)info.method_name_length);
      return fail(env);
    }
    if (size == 0 && buffer[0] != SENTINEL) {
      return (*env)->NewStringUTF(env, "size 0: the buffer was written");
    }
    if (size > 0) {
      int expected = size - 1 < 8 ? size - 1 : 8;
      if (strncmp(buffer, "hashCode", (size_t)expected) != 0 || buffer[expected] != '\0' ||
          buffer[expected + 1] != SENTINEL) {
        snprintf(message, sizeof(message), "size %d: buffer holds \"%.*s\"", size, expected + 1, buffer);
        return fail(env);
      }
    }
    /* Null buffers are skipped but their lengths reported; a missing generic signature is null. */
    if (info.signature != NULL || info.signature_length != 3 /* "()I" */ ||
        info.generic_signature != NULL || info.generic_signature_length != 0) {
      snprintf(message, sizeof(message), "size %d: null buffers: signature %p length %d, generic %p length %d",
               size, (void*)info.signature, (int)info.signature_length, (void*)info.generic_signature,
               (int)info.generic_signature_length);
      return fail(env);
    }
  }
  return NULL;
}

/* Handles that are no method or class give the documented answers. */
JNIEXPORT jstring JNICALL Java_AsgstMethodInfo_checkGarbage(JNIEnv* env, jclass cls) {
  uintptr_t garbage[] = {0, 1, 8, 0x1234, (uintptr_t)-1, (uintptr_t)&garbage, (uintptr_t)&message[3]};
  int k;
  (void)cls;
  for (k = 0; k < (int)(sizeof(garbage) / sizeof(garbage[0])); k++) {
    char name[16] = "unchanged";
    ASGST_MethodInfo m;
    ASGST_ClassInfo c;
    ASGST_MethodLineNumberEntry entries[4];
    memset(&m, 0, sizeof(m));
    memset(&c, 0, sizeof(c));
    m.method_name = name;
    m.method_name_length = sizeof(name);
    c.class_name = name;
    c.class_name_length = sizeof(name);
    ASGST_GetMethodInfo((ASGST_Method)garbage[k], &m);
    ASGST_GetClassInfo((ASGST_Class)garbage[k], &c);
    if (m.klass != NULL || m.idnum != -1 || m.class_idnum != -1 || m.method_name != NULL || m.method_name_length != 0 ||
        c.idnum != -1 || c.class_name != NULL || c.class_name_length != 0 ||
        ASGST_GetMethodIdNum((ASGST_Method)garbage[k]) != -1 || ASGST_GetClassIdNum((ASGST_Class)garbage[k]) != -1 ||
        ASGST_GetMethodLineNumberTable((ASGST_Method)garbage[k], entries, 4) != ASGST_INVALID_ARGUMENT ||
        ASGST_MethodToJMethodID((ASGST_Method)garbage[k]) != NULL || ASGST_ClassToJClass((ASGST_Class)garbage[k]) != NULL) {
      snprintf(message, sizeof(message), "garbage handle %p was taken for a method or class", (void*)garbage[k]);
      return fail(env);
    }
  }
  if (ASGST_JMethodIDToMethod(NULL) != NULL || ASGST_JClassToClass(NULL) != NULL) {
    return (*env)->NewStringUTF(env, "null ids were converted");
  }
  ASGST_GetMethodInfo(NULL, NULL);  /* must not crash */
  ASGST_GetClassInfo(NULL, NULL);
  return NULL;
}
