#!/usr/bin/env python3
"""Checks recorded answers of the iCloud backup service against its OpenAPI document.

Usage: openapi_oracle.py DOCUMENT < answers.json

answers.json is a list of {"method", "path" (the document's template), "status",
"body" (the decoded JSON)}. Every answer's status must be documented for its
operation and its body must validate against the documented schema (OpenAPI 3.0
semantics, through openapi-schema-validator). An answer to a method the document
does not declare names the component schema its body takes instead:
{"method", "path", "status", "schema", "body"}. Prints one line per problem and
exits 1 if there is any, else prints "ok N".
"""
import json
import sys

import yaml
from openapi_schema_validator import OAS30Validator


def resolve(node, document):
    """The schema with every $ref replaced by what it names (the document has no cycles)."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = document
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            return resolve(target, document)
        return {key: resolve(value, document) for key, value in node.items()}
    if isinstance(node, list):
        return [resolve(value, document) for value in node]
    return node


def check(schema, body, where, problems):
    for error in sorted(OAS30Validator(schema).iter_errors(body), key=str):
        problems.append(f"{where}: {error.message} at {list(error.absolute_path)}")


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    answers = json.load(sys.stdin)
    problems = []
    for answer in answers:
        where = f"{answer['method']} {answer['path']} {answer['status']}"
        if "schema" in answer:
            check(resolve(document["components"]["schemas"][answer["schema"]], document), answer["body"], where, problems)
            continue
        operation = document["paths"].get(answer["path"], {}).get(answer["method"].lower())
        if operation is None:
            problems.append(f"{where}: no such operation in the document")
            continue
        response = operation.get("responses", {}).get(str(answer["status"]))
        if response is None:
            problems.append(f"{where}: status not documented")
            continue
        response = resolve(response, document)
        schema = response.get("content", {}).get("application/json", {}).get("schema")
        if schema is None:
            if answer.get("body") is not None:
                problems.append(f"{where}: a body where the document has none")
            continue
        check(schema, answer["body"], where, problems)
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print(f"ok {len(answers)}")


if __name__ == "__main__":
    main()
