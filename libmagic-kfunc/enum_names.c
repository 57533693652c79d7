// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The names of the public enums, as the CLI, its JSON and the reasons
 * print them: one place, for every file that says what a value means.
 */
#include <errno.h>
#include <stddef.h>

#include "log.h"
#include "magic_kfunc_introspect.h"

const char *mkf_decision_str(enum mkf_decision d)
{
	switch (d) {
	case MKF_DECISION_BIND: return "bind";
	case MKF_DECISION_LEAVE_WEAK: return "leave-weak";
	case MKF_DECISION_UNRESOLVED: return "unresolved";
	case MKF_DECISION_WEAKEN: return "weaken";
	case MKF_DECISION_LEAVE: return "leave";
	}
	return mkf_err_ptr(-EINVAL);
}

const char *mkf_rule_str(enum mkf_rule rule)
{
	switch (rule) {
	case MKF_RULE_NONE: return "none";
	case MKF_RULE_SAME: return "same";
	case MKF_RULE_EXTEND: return "extend";
	case MKF_RULE_SHRINK: return "shrink";
	case MKF_RULE_IMPL_EXTEND: return "impl-extend";
	case MKF_RULE_IMPL_SAME: return "impl-same";
	case MKF_RULE_RETYPE: return "retype";
	case MKF_RULE_IMPL_RETYPE: return "impl-retype";
	}
	return mkf_err_ptr(-EINVAL);
}

const char *mkf_proto_change_str(enum mkf_proto_change change)
{
	switch (change) {
	case MKF_PROTO_SAME: return "same";
	case MKF_PROTO_EXTEND: return "extend";
	case MKF_PROTO_SHRINK: return "shrink";
	case MKF_PROTO_RETYPE: return "retype";
	}
	return mkf_err_ptr(-EINVAL);
}

const char *mkf_libbpf_outcome_str(enum mkf_libbpf_outcome outcome)
{
	switch (outcome) {
	case MKF_LIBBPF_BINDS: return "binds";
	case MKF_LIBBPF_BINDS_UNCALLABLE: return "binds-uncallable";
	case MKF_LIBBPF_NOT_FOUND: return "not-found";
	case MKF_LIBBPF_INCOMPATIBLE: return "incompatible";
	case MKF_LIBBPF_DROPPED: return "dropped";
	case MKF_LIBBPF_BINDS_UNTAGGED: return "binds-untagged";
	}
	return mkf_err_ptr(-EINVAL);
}

const char *mkf_libbpf_verdict_str(enum mkf_libbpf_verdict verdict)
{
	switch (verdict) {
	case MKF_LIBBPF_LOADS: return "loads";
	case MKF_LIBBPF_LOADS_DEGRADED: return "loads-degraded";
	case MKF_LIBBPF_LOADS_IF_KFUNC: return "loads-if-kfunc";
	case MKF_LIBBPF_LOAD_FAILS: return "load-fails";
	case MKF_LIBBPF_OPEN_FAILS: return "open-fails";
	}
	return mkf_err_ptr(-EINVAL);
}

const char *mkf_kfunc_shape_str(enum mkf_kfunc_shape shape)
{
	switch (shape) {
	case MKF_KFUNC_PAIR: return "pair";
	case MKF_KFUNC_LEGACY: return "legacy";
	case MKF_KFUNC_UNSPLIT: return "unsplit";
	case MKF_KFUNC_PROTO_ONLY: return "proto-only";
	}
	errno = EINVAL;
	return NULL;
}

const char *mkf_param_basis_str(enum mkf_param_basis basis)
{
	switch (basis) {
	case MKF_PARAM_BASIS_NONE: return "none";
	case MKF_PARAM_BASIS_SUFFIX_MAGIC: return "__magic";
	case MKF_PARAM_BASIS_SUFFIX_PROG: return "__prog";
	case MKF_PARAM_BASIS_SUFFIX_IGN: return "__ign";
	case MKF_PARAM_BASIS_SUFFIX_IMPLICIT: return "__implicit";
	case MKF_PARAM_BASIS_TYPE_PROG_AUX: return "struct bpf_prog_aux *";
	case MKF_PARAM_BASIS_TYPE_STRUCT_META: return "struct btf_struct_meta *";
	case MKF_PARAM_BASIS_KNOWN_SCALAR: return "known scalar";
	case MKF_PARAM_BASIS_MAGIC_TAG: return "bpf_magic tag";
	}
	errno = EINVAL;
	return NULL;
}
