// The predicate language: see AttributeValue.swift for the values it works on.
