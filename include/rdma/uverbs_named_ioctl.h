/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Declaring methods and objects of the verbs ioctl by name: a file
 * defines UVERBS_MODULE_NAME, then DECLARE_UVERBS_NAMED_METHOD(id, attrs)
 * makes UVERBS_METHOD(id) (its handler is UVERBS_HANDLER(id), which the
 * file defines), and DECLARE_UVERBS_NAMED_OBJECT(id, type, methods)
 * makes UVERBS_OBJECT(id), which a struct uapi_definition list chains
 * with UAPI_DEF_CHAIN_OBJ_TREE_NAMED(id).
 */
#ifndef RDMA_UVERBS_NAMED_IOCTL_H
#define RDMA_UVERBS_NAMED_IOCTL_H

#include <rdma/uverbs_ioctl.h>

#ifndef UVERBS_MODULE_NAME
#error "#define UVERBS_MODULE_NAME before including rdma/uverbs_named_ioctl.h"
#endif

#define _UVERBS_PASTE(x, y)	x ## y
#define _UVERBS_NAME(x, y)	_UVERBS_PASTE(x, y)
#define UVERBS_METHOD(id)	_UVERBS_NAME(UVERBS_MODULE_NAME, _method_##id)
#define UVERBS_HANDLER(id)	_UVERBS_NAME(UVERBS_MODULE_NAME, _handler_##id)
#define UVERBS_OBJECT(id)	_UVERBS_NAME(UVERBS_MODULE_NAME, _object_##id)

/* static, so not qualified by the module */
#define UVERBS_METHOD_ATTRS(method_id) _method_attrs_##method_id
#define UVERBS_OBJECT_METHODS(object_id) \
	_UVERBS_NAME(_object_methods_##object_id, __LINE__)

/* A method: its attributes, its handler UVERBS_HANDLER(_method_id) */
#define DECLARE_UVERBS_NAMED_METHOD(_method_id, ...)			       \
	static const struct uverbs_attr_def *const UVERBS_METHOD_ATTRS(	       \
		_method_id)[] = { __VA_ARGS__ };			       \
	static const struct uverbs_method_def UVERBS_METHOD(_method_id) = {    \
		.id = _method_id,					       \
		.handler = UVERBS_HANDLER(_method_id),			       \
		.num_attrs = ARRAY_SIZE(UVERBS_METHOD_ATTRS(_method_id)),      \
		.attrs = &UVERBS_METHOD_ATTRS(_method_id),		       \
	}

/*
 * A destroy method of one attribute, the handle (UVERBS_ACCESS_DESTROY):
 * the core destroys the object, the handler has nothing to do.
 */
#define DECLARE_UVERBS_NAMED_METHOD_DESTROY(_method_id, _handle_attr)	       \
	static const struct uverbs_attr_def *const UVERBS_METHOD_ATTRS(	       \
		_method_id)[] = { _handle_attr };			       \
	static const struct uverbs_method_def UVERBS_METHOD(_method_id) = {    \
		.id = _method_id,					       \
		.handler = uverbs_destroy_def_handler,			       \
		.num_attrs = ARRAY_SIZE(UVERBS_METHOD_ATTRS(_method_id)),      \
		.attrs = &UVERBS_METHOD_ATTRS(_method_id),		       \
	}

/* An object of type _type_attrs and its methods (&UVERBS_METHOD(id), ...) */
#define DECLARE_UVERBS_NAMED_OBJECT(_object_id, _type_attrs, ...)	       \
	static const struct uverbs_method_def *const UVERBS_OBJECT_METHODS(    \
		_object_id)[] = { __VA_ARGS__ };			       \
	static const struct uverbs_object_def UVERBS_OBJECT(_object_id) = {    \
		.id = _object_id,					       \
		.type_attrs = &_type_attrs,				       \
		.num_methods = ARRAY_SIZE(UVERBS_OBJECT_METHODS(_object_id)),  \
		.methods = &UVERBS_OBJECT_METHODS(_object_id)		       \
	}

/* Methods of an object without instances (UVERBS_OBJECT_DEVICE's) */
#define DECLARE_UVERBS_GLOBAL_METHODS(_object_id, ...)			       \
	static const struct uverbs_method_def *const UVERBS_OBJECT_METHODS(    \
		_object_id)[] = { __VA_ARGS__ };			       \
	static const struct uverbs_object_def UVERBS_OBJECT(_object_id) = {    \
		.id = _object_id,					       \
		.num_methods = ARRAY_SIZE(UVERBS_OBJECT_METHODS(_object_id)),  \
		.methods = &UVERBS_OBJECT_METHODS(_object_id)		       \
	}

/* A driver's methods added to an object defined elsewhere */
#define ADD_UVERBS_METHODS(_name, _object_id, ...)			       \
	static const struct uverbs_method_def *const UVERBS_OBJECT_METHODS(    \
		_object_id)[] = { __VA_ARGS__ };			       \
	static const struct uverbs_object_def _name = {			       \
		.id = _object_id,					       \
		.num_methods = ARRAY_SIZE(UVERBS_OBJECT_METHODS(_object_id)),  \
		.methods = &UVERBS_OBJECT_METHODS(_object_id)		       \
	}

/* A driver's attributes added to a method defined elsewhere */
#define ADD_UVERBS_ATTRIBUTES_SIMPLE(_name, _object_id, _method_id, ...)       \
	static const struct uverbs_attr_def *const UVERBS_METHOD_ATTRS(	       \
		_method_id)[] = { __VA_ARGS__ };			       \
	static const struct uverbs_method_def UVERBS_METHOD(_method_id) = {    \
		.id = _method_id,					       \
		.num_attrs = ARRAY_SIZE(UVERBS_METHOD_ATTRS(_method_id)),      \
		.attrs = &UVERBS_METHOD_ATTRS(_method_id),		       \
	};								       \
	ADD_UVERBS_METHODS(_name, _object_id, &UVERBS_METHOD(_method_id))

#endif /* RDMA_UVERBS_NAMED_IOCTL_H */
