package dev.neardup.cli;

public class Neardup {
    public static void main(String[] args) {}
}
