// The deep-learning layer of ivy in one include: the nn functions (ivy::nn::conv2d, ...),
// Container, Module and the layers, the optimizers (ivy::optim) and the learning-rate
// schedules. Everything here runs on every backend and differentiates through ivy's
// autodiff (docs/nn.md).
#pragma once

#include "ivy/container.hpp"
#include "ivy/ivy.hpp"
#include "ivy/module.hpp"
#include "ivy/nn_attention_rnn.hpp"
#include "ivy/nn_conv.hpp"
#include "ivy/nn_functional.hpp"
#include "ivy/nn_layers_seq.hpp"
#include "ivy/nn_resample.hpp"
#include "ivy/optim.hpp"
