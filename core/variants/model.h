/* SPDX-License-Identifier: GPL-2.0-only */
/* struct variant_ops for the hand-written models (core/variants/model.c). */
#ifndef DPM_DEVICE_MODEL_H
#define DPM_DEVICE_MODEL_H

#include "variant.h"

extern const struct variant_ops model_variant_ops;

#endif
