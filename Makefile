# Shortcuts; every target is also an npm script.
.PHONY: install build start stack test lint generate

install:
	npm ci

generate:
	node scripts/generate.mjs

build: generate
	npm run build -w @checkpoint/web

start:
	npm start

stack:
	npm run stack

test:
	npm test

lint: generate
	npm run lint
