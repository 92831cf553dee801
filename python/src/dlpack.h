// The DLPack ABI (https://dmlc.github.io/dlpack/latest/c_api.html), the subset the
// _ivy extension produces and consumes: legacy DLManagedTensor ("dltensor" capsules)
// and DLManagedTensorVersioned ("dltensor_versioned", DLPack >= 1.0).
#pragma once

#include <cstdint>

extern "C" {

enum IvyDLDeviceType : std::int32_t { kIvyDLCPU = 1, kIvyDLCUDA = 2, kIvyDLCUDAHost = 3 };

struct IvyDLDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};

enum IvyDLDataTypeCode : std::uint8_t {
  kIvyDLInt = 0,
  kIvyDLUInt = 1,
  kIvyDLFloat = 2,
  kIvyDLOpaqueHandle = 3,
  kIvyDLBfloat = 4,
  kIvyDLComplex = 5,
  kIvyDLBool = 6,
};

struct IvyDLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct IvyDLTensor {
  void* data;
  IvyDLDevice device;
  std::int32_t ndim;
  IvyDLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; may be null (compact row-major)
  std::uint64_t byte_offset;
};

struct IvyDLManagedTensor {
  IvyDLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(IvyDLManagedTensor* self);
};

struct IvyDLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};

inline constexpr std::uint64_t kIvyDLFlagReadOnly = 1ULL << 0;
inline constexpr std::uint64_t kIvyDLFlagIsCopied = 1ULL << 1;

struct IvyDLManagedTensorVersioned {
  IvyDLPackVersion version;
  void* manager_ctx;
  void (*deleter)(IvyDLManagedTensorVersioned* self);
  std::uint64_t flags;
  IvyDLTensor dl_tensor;
};

}  // extern "C"
