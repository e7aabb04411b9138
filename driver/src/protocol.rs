//! The wire format of PROTOCOL.md: requests, answers and values.
//!
//! Every op handler returns `Result<Body, Failure>`; `answer` turns that into
//! the JSON line with `id` and `status`.

use crate::panics::Crash;
use cranelift_codegen::data_value::DataValue;
use cranelift_codegen::ir::{types, Type};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The fields of an `ok` answer besides `id` and `status`.
pub type Body = Map<String, Value>;

/// Why an op did not answer `ok`.
#[derive(Debug, Clone)]
pub enum Failure {
    /// Cranelift or the driver rejected the input (`status: error`).
    Error(String),
    /// Cranelift panicked (`status: crash`).
    Crash(Crash),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Error(message)
    }
}

impl From<Crash> for Failure {
    fn from(crash: Crash) -> Self {
        Failure::Crash(crash)
    }
}

/// Serialises an answer struct into the fields of an `ok` body.
pub fn body<T: Serialize>(value: &T) -> Body {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map,
        other => panic!("answer body is not a JSON object: {other:?}"),
    }
}

/// The answer line for request `id` (null when the request had no readable id).
pub fn answer(id: &Value, outcome: Result<Body, Failure>) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), id.clone());
    match outcome {
        Ok(fields) => {
            out.insert("status".into(), "ok".into());
            out.extend(fields);
        }
        Err(failure) => failure_fields(&mut out, failure),
    }
    Value::Object(out)
}

/// Adds `status`, `message` (and `location` for a crash) to `out`.
pub fn failure_fields(out: &mut Map<String, Value>, failure: Failure) {
    match failure {
        Failure::Error(message) => {
            out.insert("status".into(), "error".into());
            out.insert("message".into(), message.into());
        }
        Failure::Crash(crash) => {
            out.insert("status".into(), "crash".into());
            out.insert("message".into(), crash.message.into());
            out.insert("location".into(), crash.location.into());
        }
    }
}

/// Decodes the op-specific fields of a request.
pub fn fields<T: for<'de> Deserialize<'de>>(request: &Value) -> Result<T, Failure> {
    T::deserialize(request).map_err(|e| Failure::Error(format!("bad request: {e}")))
}

/// For list fields: absent and `null` both mean empty (Go encodes a nil
/// slice as `null`). Use with `#[serde(default, deserialize_with = ...)]`.
pub fn null_as_empty<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(deserializer)?.unwrap_or_default())
}

/// A value on the wire: its CLIF type and its bytes, little-endian, lane 0
/// first, hex encoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireValue {
    #[serde(rename = "type")]
    pub ty: String,
    pub hex: String,
}

impl WireValue {
    /// Encodes `value` as a `ty` (the declared type: a `DataValue` only knows
    /// the width of a vector, not its lanes).
    pub fn encode(value: &DataValue, ty: Type) -> WireValue {
        let mut bytes = vec![0u8; ty.bytes() as usize];
        value.write_to_slice_le(&mut bytes);
        WireValue {
            ty: ty.to_string(),
            hex: bytes.iter().map(|b| format!("{b:02x}")).collect(),
        }
    }

    /// Decodes the value, checking that the hex has exactly the type's size.
    pub fn decode(&self) -> Result<DataValue, String> {
        let ty = parse_type(&self.ty)?;
        let bytes = decode_hex(&self.hex).map_err(|e| format!("value of type {}: {e}", self.ty))?;
        if bytes.len() != ty.bytes() as usize {
            return Err(format!(
                "value of type {} has {} bytes, want {}",
                self.ty,
                bytes.len(),
                ty.bytes()
            ));
        }
        Ok(DataValue::read_from_slice_le(&bytes, ty))
    }
}

/// Parses a CLIF value type: a scalar (`i8` ... `i128`, `f16` ... `f128`) or
/// a fixed vector of one (`i32x4`).
pub fn parse_type(name: &str) -> Result<Type, String> {
    let bad = || format!("unknown value type {name:?}");
    let (lane_name, lanes) = match name.split_once('x') {
        Some((lane, count)) => (lane, Some(count.parse::<u32>().map_err(|_| bad())?)),
        None => (name, None),
    };
    let lane = match lane_name {
        "i8" => types::I8,
        "i16" => types::I16,
        "i32" => types::I32,
        "i64" => types::I64,
        "i128" => types::I128,
        "f16" => types::F16,
        "f32" => types::F32,
        "f64" => types::F64,
        "f128" => types::F128,
        _ => return Err(bad()),
    };
    match lanes {
        None => Ok(lane),
        Some(n) => lane.by(n).ok_or_else(bad),
    }
}

fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits in {hex:?}"));
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| {
            hex.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(|| format!("bad hex {hex:?}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_type_accepts_scalars_and_vectors() {
        let cases = [
            ("i8", Some(types::I8)),
            ("i128", Some(types::I128)),
            ("f64", Some(types::F64)),
            ("i32x4", Some(types::I32X4)),
            ("f64x2", Some(types::F64X2)),
            ("i32x3", None),
            ("i33", None),
            ("x4", None),
            ("", None),
        ];
        for (name, want) in cases {
            assert_eq!(parse_type(name).ok(), want, "{name}");
        }
    }

    #[test]
    fn values_round_trip_little_endian() {
        let cases = [
            ("i32", "2a000000", DataValue::I32(42)),
            ("i8", "ff", DataValue::I8(-1)),
            ("i64", "0100000000000080", DataValue::I64(i64::MIN + 1)),
        ];
        for (ty, hex, want) in cases {
            let wire = WireValue {
                ty: ty.into(),
                hex: hex.into(),
            };
            let got = wire.decode().unwrap();
            assert_eq!(got, want);
            assert_eq!(WireValue::encode(&got, parse_type(ty).unwrap()), wire);
        }
    }

    #[test]
    fn decode_rejects_wrong_sizes_and_bad_hex() {
        for (ty, hex) in [
            ("i32", "2a00"),
            ("i32", "2a00000000"),
            ("i8", "zz"),
            ("i8", "f"),
        ] {
            let wire = WireValue {
                ty: ty.into(),
                hex: hex.into(),
            };
            assert!(wire.decode().is_err(), "{ty} {hex}");
        }
    }
}
