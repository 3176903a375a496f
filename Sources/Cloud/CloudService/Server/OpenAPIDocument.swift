/// The API's OpenAPI document, `openapi.yaml` beside the sources, embedded
/// in the binary so `/openapi.yaml` needs no resource bundle.
enum OpenAPIDocument {
    static let text = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
}
