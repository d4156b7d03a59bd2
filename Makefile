# Shortcuts; every target is also an npm script.
.PHONY: install build start stack test lint generate

install:
	npm ci

generate:
	node scripts/generate.mjs

build:
	npm run build

start:
	npm start

stack:
	npm run stack

test:
	npm test

lint: generate
	npm run lint
